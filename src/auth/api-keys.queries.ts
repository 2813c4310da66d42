import type { StatementRunner } from '../infra/database/database';
import { ProjectEntity } from '../projects/entities/project.entity';
import { type ProjectRef, toProjectRef } from '../projects/project-ref';
import type { ApiKeyMode, ApiKeyType } from './entities/api-key.entity';

/** An SQL boolean over the project whose id is the column `projectIdColumn`. */
export type ProjectProbe = (projectIdColumn: string) => string;

export interface KeyWithProject {
  id: string;
  type: ApiKeyType;
  mode: ApiKeyMode;
  revoked: boolean;
  project: ProjectRef;
}

interface KeyWithProjectRow {
  id: string;
  type: ApiKeyType;
  mode: ApiKeyMode;
  revoked: boolean;
  project_id: string;
  account_id: string | null;
  slug: string;
  name: string;
  plan: ProjectEntity['plan'];
  settings: ProjectEntity['settings'];
  created_at: Date | string;
  live_project_id: string | null;
  has_webhook_endpoints: boolean | null;
}

/**
 * A key by its hash, with its project, in one statement: a cache miss costs one round trip.
 * `webhookEndpoints` is webhooks/' EXISTS over the project's enabled endpoints (the table is that
 * module's, and auth/ imports no feature); without it the project's copy says nothing about them.
 */
export async function findKeyWithProject(
  runner: StatementRunner,
  secretHash: string,
  webhookEndpoints: ProjectProbe | null,
): Promise<KeyWithProject | null> {
  const rows = await runner.query<KeyWithProjectRow[]>(
    `SELECT k.id, k.type, k.mode, k.revoked_at IS NOT NULL AS revoked,
            p.id AS project_id, p.account_id, p.slug, p.name, p.plan, p.settings, p.created_at, p.live_project_id,
            ${webhookEndpoints ? webhookEndpoints('p.id') : 'NULL::boolean'} AS has_webhook_endpoints
       FROM api_keys k JOIN projects p ON p.id = k.project_id
      WHERE k.secret_hash = $1`,
    [secretHash],
  );
  const row = rows[0];
  if (!row) return null;
  const project = Object.assign(new ProjectEntity(), {
    id: row.project_id,
    accountId: row.account_id,
    slug: row.slug,
    name: row.name,
    plan: row.plan,
    settings: row.settings,
    createdAt: new Date(row.created_at),
    liveProjectId: row.live_project_id,
  });
  const withEndpoints = row.has_webhook_endpoints === null ? {} : { hasWebhookEndpoints: row.has_webhook_endpoints };
  return { id: row.id, type: row.type, mode: row.mode, revoked: row.revoked, project: { ...toProjectRef(project), ...withEndpoints } };
}
