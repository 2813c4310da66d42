import { type INestApplicationContext, Logger } from '@nestjs/common';
import { ProvisioningService } from './auth/provisioning.service';
import { ProjectsService } from './projects/projects.service';

export interface DemoBanner {
  /** Writes the keys to stdout: once, after the server listens, so that they stay on screen. */
  print(): void;
}

/**
 * `npm start` on an empty embedded database creates a demo project (Builder plan) and returns the
 * banner with its keys, shown once. On later starts it logs how to find projects and make a key
 * instead, since the keys are not stored in a form that can be shown again.
 */
export async function seedDemoProject(app: INestApplicationContext, publicBaseUrl: string): Promise<DemoBanner | null> {
  const projects = app.get(ProjectsService);
  if ((await projects.countProjects()) > 0) {
    const slug = (await projects.findBySlug('demo')) ? 'demo' : '<slug>';
    new Logger('Demo').log(
      `The demo keys were shown on the first start only. List projects: npm run -s cli -- project:list; ` +
        `make a new key: npm run -s cli -- key:create --project ${slug} --type secret (works while the server runs)`,
    );
    return null;
  }
  const demo = await app.get(ProvisioningService).createProjectWithKeys({ name: 'Demo', slug: 'demo', plan: 'builder' });
  const banner = [
    '',
    'Demo project created. The keys are shown once; keep them.',
    `  project:         ${demo.project.id} (slug "${demo.project.slug}", plan builder)`,
    `  secret key:      ${demo.secretKey}`,
    `  publishable key: ${demo.publishableKey}`,
    `  try:             curl -H "Authorization: Bearer ${demo.secretKey}" ${publicBaseUrl}/v1/setup-check`,
    `  lost them?       npm run -s cli -- key:create --project demo --type secret`,
    '',
  ].join('\n');
  return { print: () => process.stdout.write(`${banner}\n`) };
}

/**
 * A server on its own PostgreSQL (no demo project there) with no project yet: says how to make the
 * first one, since nothing can be called without a key and keys come only from the CLI.
 */
export async function adviseFirstProject(app: INestApplicationContext): Promise<void> {
  if ((await app.get(ProjectsService).countProjects()) > 0) return;
  new Logger('Setup').log(
    'No project yet. Create the first with its keys (shown once): npm run -s cli -- project:create --name "My product" --plan builder ' +
      '(in the Docker image: node dist/cli.js project:create …)',
  );
}
