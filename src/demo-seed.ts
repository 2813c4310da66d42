import type { INestApplicationContext } from '@nestjs/common';
import { ProvisioningService } from './auth/provisioning.service';
import { ProjectsService } from './projects/projects.service';

/**
 * `npm start` on an empty embedded database creates a demo project (Builder plan) and prints its
 * keys once, so a new user can call the API at once.
 */
export async function seedDemoProject(app: INestApplicationContext, publicBaseUrl: string): Promise<void> {
  if ((await app.get(ProjectsService).countProjects()) > 0) return;
  const demo = await app.get(ProvisioningService).createProjectWithKeys({ name: 'Demo', slug: 'demo', plan: 'builder' });
  process.stdout.write(
    [
      '',
      'Demo project created. The keys are shown once; keep them.',
      `  project:         ${demo.project.id} (slug "${demo.project.slug}", plan builder)`,
      `  secret key:      ${demo.secretKey}`,
      `  publishable key: ${demo.publishableKey}`,
      `  try:             curl -H "Authorization: Bearer ${demo.secretKey}" ${publicBaseUrl}/v1/setup-check`,
      '',
    ].join('\n') + '\n',
  );
}
