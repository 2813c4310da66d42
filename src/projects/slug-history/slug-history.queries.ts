import type { EntityManager } from 'typeorm';

/**
 * SQL of the slug history (project_slug_history: old slug → project; project_slug_changes: the
 * changes that count against the limit). Every helper takes the caller's transaction.
 */

export interface SlugHold {
  slug: string;
  projectId: string | null;
  releasedAt: Date;
}

/**
 * Serialises everything that takes or releases these slugs (create, rename, delete) until the
 * transaction ends, in one order, so two projects never both pass the hold check for one slug.
 */
export async function lockSlugs(em: EntityManager, slugs: readonly string[]): Promise<void> {
  for (const slug of [...new Set(slugs)].sort()) {
    await em.query(`SELECT pg_advisory_xact_lock(hashtextextended('project-slug:' || $1, 0))`, [slug]);
  }
}

export async function findSlugHold(em: EntityManager, slug: string): Promise<SlugHold | null> {
  const rows: { slug: string; project_id: string | null; released_at: Date }[] = await em.query(
    'SELECT slug, project_id, released_at FROM project_slug_history WHERE slug = $1',
    [slug],
  );
  return rows.length > 0 ? { slug: rows[0].slug, projectId: rows[0].project_id, releasedAt: rows[0].released_at } : null;
}

export async function deleteSlugHold(em: EntityManager, slug: string): Promise<void> {
  await em.query('DELETE FROM project_slug_history WHERE slug = $1', [slug]);
}

/** The slug now points (redirects) to `projectId`, or to nobody for a deleted project; held from `releasedAt`. */
export async function holdSlug(em: EntityManager, slug: string, projectId: string | null, releasedAt: Date): Promise<void> {
  await em.query(
    `INSERT INTO project_slug_history (slug, project_id, released_at) VALUES ($1, $2, $3)
     ON CONFLICT (slug) DO UPDATE SET project_id = EXCLUDED.project_id, released_at = EXCLUDED.released_at`,
    [slug, projectId, releasedAt],
  );
}

/** The current slug of the project that used to have `oldSlug`: the one lookup every slug route makes on a miss. */
export async function currentSlugOf(em: EntityManager, oldSlug: string): Promise<string | null> {
  const rows: { slug: string }[] = await em.query(
    `SELECT p.slug FROM project_slug_history h JOIN projects p ON p.id = h.project_id WHERE h.slug = $1`,
    [oldSlug],
  );
  return rows[0]?.slug ?? null;
}

/** When the counted changes since `since` happened, oldest first. */
export async function countedSlugChangesSince(em: EntityManager, projectId: string, since: Date): Promise<Date[]> {
  const rows: { changed_at: Date }[] = await em.query(
    `SELECT changed_at FROM project_slug_changes WHERE project_id = $1 AND counted AND changed_at > $2 ORDER BY changed_at`,
    [projectId, since],
  );
  return rows.map((row) => row.changed_at);
}

export async function insertSlugChange(
  em: EntityManager,
  change: { id: string; projectId: string; fromSlug: string; toSlug: string; counted: boolean; changedAt: Date },
): Promise<void> {
  await em.query(
    `INSERT INTO project_slug_changes (id, project_id, from_slug, to_slug, counted, changed_at) VALUES ($1, $2, $3, $4, $5, $6)`,
    [change.id, change.projectId, change.fromSlug, change.toSlug, change.counted, change.changedAt],
  );
}
