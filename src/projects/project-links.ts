import type { AppConfig } from '../config/app-config';
import { ProjectDto } from './dto/project.dto';
import { nextPlan } from './plans';
import type { ProjectRef } from './project-ref';

/** `{base_url}/changelog/{slug}`: the hosted public changelog page. */
export function changelogPublicUrl(config: AppConfig, project: ProjectRef): string {
  return `${config.publicBaseUrl}/changelog/${project.slug}`;
}

/** The dashboard's billing page for the next plan up, or null on the highest plan. */
export function upgradeUrl(config: AppConfig, project: ProjectRef): string | null {
  const next = nextPlan(project.plan);
  return next ? `${config.publicBaseUrl}/dashboard/billing?project=${project.id}&plan=${next}` : null;
}

export function toProjectDto(config: AppConfig, project: ProjectRef): ProjectDto {
  return {
    id: project.id,
    slug: project.slug,
    name: project.name,
    plan: project.plan,
    changelog_public_url: changelogPublicUrl(config, project),
    created_at: project.createdAt.toISOString(),
  };
}
