import type { EntityManager } from 'typeorm';

/** Holds the account's row lock until the transaction ends (AccountsService.lockAccount). */
export async function lockAccountRow(em: EntityManager, accountId: string): Promise<void> {
  await em.query('SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE', [accountId]);
}
