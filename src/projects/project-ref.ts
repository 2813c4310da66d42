import type { PlanName } from './plans';
import type { ProjectEntity, ProjectSettings } from './entities/project.entity';

/** The tenant every service method takes first. Plain data, safe to cache for one request. */
export interface ProjectRef {
  readonly id: string;
  /** The dashboard account that owns it; null for projects made with the operator CLI. */
  readonly accountId: string | null;
  readonly slug: string;
  readonly name: string;
  readonly plan: PlanName;
  readonly settings: ProjectSettings;
  readonly createdAt: Date;
  /** `test`: the test-mode twin of `liveProjectId`, reached with svc_test_ keys; its data is its own. */
  readonly mode: 'live' | 'test';
  readonly liveProjectId: string | null;
}

export function toProjectRef(row: ProjectEntity): ProjectRef {
  return {
    id: row.id,
    accountId: row.accountId,
    slug: row.slug,
    name: row.name,
    plan: row.plan,
    settings: row.settings,
    createdAt: row.createdAt,
    mode: row.liveProjectId ? 'test' : 'live',
    liveProjectId: row.liveProjectId,
  };
}
