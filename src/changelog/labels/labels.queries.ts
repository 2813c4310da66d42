import type { EntityManager } from 'typeorm';

/** The project's labels among `slugs`, with their ids (unknown slugs are left out). */
export async function labelsWithSlugs(
  em: EntityManager,
  projectId: string,
  slugs: readonly string[],
): Promise<{ id: string; slug: string }[]> {
  return em.query('SELECT id, slug FROM changelog_labels WHERE project_id = $1 AND slug = ANY($2)', [projectId, slugs]);
}
