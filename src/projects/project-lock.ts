import type { EntityManager } from 'typeorm';
import { lockProjectRow } from './projects.queries';

/**
 * Holds the project's row lock until the transaction ends. Plan caps decided by "count, then
 * insert" (published changelog entries, labels, webhook endpoints) take it first, so concurrent
 * requests count one after another and never both see the last free place. Taken before any row of
 * the feature, so locks are always taken in the same order.
 */
export function lockProject(em: EntityManager, projectId: string): Promise<void> {
  return lockProjectRow(em, projectId);
}
