import type { StatementRunner } from '../infra/database/database.service';
import { ProjectEntity } from '../projects/entities/project.entity';
import { projectAndTwinIds, projectsAs } from '../projects/projects.queries';
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
       FROM api_keys k JOIN ${projectsAs('p')} ON p.id = k.project_id
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

/** The key a revocation is for: by its hash (the key's own revoke), or by id within a project and its test-mode twin. */
export type RevokeTarget = { secretHash: string } | { id: string; ofProjectOrTwin: string };

interface RevokedKeyRow {
  id: string;
  type: ApiKeyType;
  mode: ApiKeyMode;
  prefix: string;
  last_four: string;
  secret_hash: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

/** Sets revoked_at on the matching key, keeping an earlier one; answers the key, or null when none matches. */
export async function revokeKey(em: StatementRunner, target: RevokeTarget, now: Date): Promise<RevokedKeyRow | null> {
  const [where, params] =
    'secretHash' in target
      ? ['secret_hash = $1', [target.secretHash]]
      : [`id = $1 AND project_id IN (${projectAndTwinIds('$2')})`, [target.id, target.ofProjectOrTwin]];
  // TypeORM answers an UPDATE … RETURNING with [rows, affected count].
  const [rows] = await em.query<[RevokedKeyRow[], number]>(
    `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $${params.length + 1}) WHERE ${where}
       RETURNING id, type, mode, prefix, last_four, secret_hash, created_at, last_used_at, revoked_at`,
    [...params, now],
  );
  return rows[0] ?? null;
}

/**
 * Records when keys were last used, from a batch of (key id, time): a key's time moves only
 * forward, and only when it is at least `intervalMs` newer than the stored one.
 */
export async function recordKeyUses(em: StatementRunner, uses: Map<string, Date>, intervalMs: number): Promise<void> {
  await em.query(
    `UPDATE api_keys SET last_used_at = used.at
         FROM unnest($1::varchar[], $2::timestamptz[]) AS used(id, at)
         WHERE api_keys.id = used.id AND (api_keys.last_used_at IS NULL OR api_keys.last_used_at <= used.at - $3 * interval '1 millisecond')`,
    [[...uses.keys()], [...uses.values()], intervalMs],
  );
}
