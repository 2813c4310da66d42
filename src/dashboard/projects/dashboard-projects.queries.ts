import type { EntityManager } from 'typeorm';
import type { PlanName } from '../../projects/plans';

/**
 * Holds the account's row lock until the transaction ends: creating and deleting projects count
 * the account's projects first, so concurrent requests count one after another.
 */
export async function lockAccount(em: EntityManager, accountId: string): Promise<void> {
  await em.query('SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE', [accountId]);
}

/** The plans of the account's live projects (test-mode twins belong to no account). */
export async function accountProjectPlans(em: EntityManager, accountId: string): Promise<PlanName[]> {
  const rows: { plan: PlanName }[] = await em.query('SELECT plan FROM projects WHERE account_id = $1 AND live_project_id IS NULL', [
    accountId,
  ]);
  return rows.map((row) => row.plan);
}

/** Deletes the project; its test-mode twin and every row of both go with it (ON DELETE CASCADE everywhere). */
export async function deleteProjectRow(em: EntityManager, projectId: string): Promise<void> {
  await em.query('DELETE FROM projects WHERE id = $1', [projectId]);
}
