import type { EntityManager } from 'typeorm';
import { BillingAccountEntity } from './entities/billing-account.entity';
import type { BillingEventEntity, BillingEventOutcome } from './entities/billing-event.entity';

/**
 * Claims a provider event id; false when it was handled before. The primary key decides, so two
 * deliveries of one event racing each other apply it once (the second waits on the first's row).
 */
export async function claimBillingEvent(em: EntityManager, row: BillingEventEntity): Promise<boolean> {
  const inserted = (await em.query(
    `INSERT INTO billing_events (id, type, project_id, occurred_at, outcome, received_at)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING RETURNING id`,
    [row.id, row.type, row.projectId, row.occurredAt, row.outcome, row.receivedAt],
  )) as unknown[];
  return inserted.length === 1;
}

export async function recordEventOutcome(
  em: EntityManager,
  id: string,
  projectId: string | null,
  outcome: BillingEventOutcome,
): Promise<void> {
  await em.query('UPDATE billing_events SET project_id = $2, outcome = $3 WHERE id = $1', [id, projectId, outcome]);
}

export function findBillingAccount(em: EntityManager, projectId: string): Promise<BillingAccountEntity | null> {
  return em.findOne(BillingAccountEntity, { where: { projectId } });
}

export async function projectOfCustomer(em: EntityManager, customerId: string): Promise<string | null> {
  const row = await em.findOne(BillingAccountEntity, { where: { customerId }, select: { projectId: true } });
  return row?.projectId ?? null;
}

export async function saveBillingAccount(em: EntityManager, row: BillingAccountEntity): Promise<void> {
  await em.upsert(BillingAccountEntity, row, ['projectId']);
}
