import type { EntityManager } from 'typeorm';
import type { ProjectSettings } from './entities/project.entity';
import type { PlanName } from './plans';

/**
 * The SQL that names the projects table (docs/architecture.md, data ownership). Other modules call
 * the functions below through ProjectsService, ProjectSettingsService and lockProject; a statement
 * of another module that must read a project in the same round trip (the key lookup, the public
 * changelog, the widget, a custom domain's host) composes one of the fragments at the top, so the
 * statement PostgreSQL receives stays one statement and the table's name stays written here.
 */

/** Fragment: the projects table under `alias`, for another module's FROM or JOIN. */
export function projectsAs(alias: string): string {
  return `projects ${alias}`;
}

/** Fragment: one stored setting of the project whose id is `projectIdSql`, as a scalar subquery (JSON). */
export function projectSettingSubquery(key: keyof ProjectSettings, projectIdSql: string): string {
  return `(SELECT settings -> '${key}' FROM projects WHERE id = ${projectIdSql})`;
}

/** Fragment: the ids of the project `projectIdSql` and of its test-mode twin, as a sub-select. */
export function projectAndTwinIds(projectIdSql: string): string {
  return `SELECT id FROM projects WHERE id = ${projectIdSql} OR live_project_id = ${projectIdSql}`;
}

/** Holds the project's row lock until the transaction ends (see lockProject). */
export async function lockProjectRow(em: EntityManager, projectId: string): Promise<void> {
  await em.query('SELECT 1 FROM projects WHERE id = $1 FOR UPDATE', [projectId]);
}

export async function readProjectSlug(em: EntityManager, projectId: string): Promise<string> {
  const [row]: { slug: string }[] = await em.query('SELECT slug FROM projects WHERE id = $1', [projectId]);
  return row.slug;
}

/** The project's settings document as stored (modules' switches that were never set are absent). */
export async function readStoredSettings(em: EntityManager, projectId: string): Promise<Partial<ProjectSettings>> {
  const rows: { settings: Partial<ProjectSettings> }[] = await em.query('SELECT settings FROM projects WHERE id = $1', [projectId]);
  return rows[0]?.settings ?? {};
}

/** Merges `patch` into the settings at the top level in one statement, so a concurrent change to another setting is kept. */
export async function mergeSettings(em: EntityManager, projectId: string, patch: Partial<ProjectSettings>, now: Date): Promise<void> {
  await em.query('UPDATE projects SET settings = settings || $2::jsonb, updated_at = $3 WHERE id = $1', [
    projectId,
    JSON.stringify(patch),
    now,
  ]);
}

/** The plans of the account's live projects (test-mode twins belong to no account). */
export async function livePlansOfAccount(em: EntityManager, accountId: string): Promise<PlanName[]> {
  const rows: { plan: PlanName }[] = await em.query('SELECT plan FROM projects WHERE account_id = $1 AND live_project_id IS NULL', [
    accountId,
  ]);
  return rows.map((row) => row.plan);
}

/** Deletes the project; its test-mode twin and every row of both go with it (ON DELETE CASCADE everywhere). */
export async function deleteProjectRow(em: EntityManager, projectId: string): Promise<void> {
  await em.query('DELETE FROM projects WHERE id = $1', [projectId]);
}

/** A page of project ids in id order (keyset), for jobs that work project by project. */
export async function projectIdsAfter(em: EntityManager, after: string, limit: number): Promise<string[]> {
  const rows: { id: string }[] = await em.query('SELECT id FROM projects WHERE id > $1 ORDER BY id LIMIT $2', [after, limit]);
  return rows.map((row) => row.id);
}

/** Moves the project to `slug` (the caller handles the unique violation uq_projects_slug). */
export async function updateProjectSlug(em: EntityManager, projectId: string, slug: string, now: Date): Promise<void> {
  await em.query('UPDATE projects SET slug = $2, slug_generated = false, updated_at = $3 WHERE id = $1', [projectId, slug, now]);
}
