import type { EntityManager } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import { labelsWithSlugs } from './labels.queries';

/**
 * The ids of the project's labels named by `slugs` (duplicates collapse), in the order given. An
 * unknown slug is VALIDATION_ERROR with `param` (spec: unknown label slugs), naming the first one.
 * Pass the transaction's `em` so the check and the write see the same labels.
 */
export async function resolveLabelSlugs(
  em: EntityManager,
  projectId: string,
  slugs: readonly string[],
  param = 'labels',
): Promise<string[]> {
  const wanted = [...new Set(slugs)];
  if (wanted.length === 0) return [];
  const rows = await labelsWithSlugs(em, projectId, wanted);
  const idBySlug = new Map(rows.map((row) => [row.slug, row.id]));
  const unknown = wanted.find((slug) => !idBySlug.has(slug));
  if (unknown !== undefined) {
    throw new ApiError('VALIDATION_ERROR', `No label with slug "${unknown.slice(0, 40)}" in this project.`, {
      param,
      remediation: 'Create the label first (POST /v1/changelog/labels), or use a slug from GET /v1/changelog/labels.',
    });
  }
  return wanted.map((slug) => idBySlug.get(slug) as string);
}
