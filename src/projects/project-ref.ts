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
  /**
   * Whether the project had an enabled webhook endpoint when this copy was read. Only the API key
   * cache's copy says (auth/api-keys.service.ts), and it is dropped in every process whenever an
   * endpoint change can flip the answer; absent means not known, and events plan deliveries.
   */
  readonly hasWebhookEndpoints?: boolean;
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
