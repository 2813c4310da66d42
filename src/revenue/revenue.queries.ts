import type { EntityManager } from 'typeorm';
import type { Reseal } from '../infra/encryption/sealed-values.service';
import type { PersonToErase } from '../infra/erasure/person-match';
import { RevenueConnectionEntity } from './entities/revenue-connection.entity';
import { RevenueCustomerEntity } from './entities/revenue-customer.entity';
import { RevenueCustomerMrrEntity, RevenueMovementEntity } from './entities/revenue-customer-mrr.entity';
import { RevenueInvoiceEntity } from './entities/revenue-invoice.entity';
import { RevenueSubscriptionEntity } from './entities/revenue-subscription.entity';
import { RevenueSyncEntity } from './entities/revenue-sync.entity';

/** The one-connection-per-project index; a second connect's insert trips it (PROCESSOR_ALREADY_CONNECTED). */
export const UQ_REVENUE_CONNECTIONS_PROJECT = 'uq_revenue_connections_project';

export function findConnection(em: EntityManager, projectId: string): Promise<RevenueConnectionEntity | null> {
  return em.findOne(RevenueConnectionEntity, { where: { projectId } });
}

/**
 * Serialises connects within one account for the rest of the transaction (a transaction-scoped
 * advisory lock keyed by the account id), so two projects of an Indie account cannot both pass
 * the one-per-account check at once.
 */
export async function lockAccountConnections(em: EntityManager, accountId: string): Promise<void> {
  await em.query(`SELECT pg_advisory_xact_lock(hashtext('revenue_connections:' || $1))`, [accountId]);
}

export async function accountHasOtherConnection(em: EntityManager, accountId: string, projectId: string): Promise<boolean> {
  const rows: unknown[] = await em.query('SELECT 1 FROM revenue_connections WHERE account_id = $1 AND project_id <> $2 LIMIT 1', [
    accountId,
    projectId,
  ]);
  return rows.length > 0;
}

/** Removes the connection and everything synced through it (the syncs go with it by foreign key). */
export async function deleteProjectRevenue(em: EntityManager, projectId: string): Promise<boolean> {
  for (const table of ['revenue_movements', 'revenue_customer_mrr', 'revenue_invoices', 'revenue_subscriptions', 'revenue_customers']) {
    await em.query(`DELETE FROM ${table} WHERE project_id = $1`, [projectId]);
  }
  const [, affected] = (await em.query('DELETE FROM revenue_connections WHERE project_id = $1', [projectId])) as [unknown, number];
  return affected > 0;
}

export async function sampleSealedKey(em: EntityManager): Promise<string | null> {
  const rows: Array<{ key_ciphertext: string }> = await em.query('SELECT key_ciphertext FROM revenue_connections LIMIT 1');
  return rows[0]?.key_ciphertext ?? null;
}

/** `encryption:reseal`'s pass over the processor keys, rows locked; only changed rows are written. */
export async function resealKeys(em: EntityManager, reseal: Reseal): Promise<void> {
  const rows: Array<{ id: string; key_ciphertext: string }> = await em.query(
    'SELECT id, key_ciphertext FROM revenue_connections ORDER BY id FOR UPDATE',
  );
  for (const row of rows) {
    const sealed = reseal(row.key_ciphertext, row.id);
    if (sealed !== row.key_ciphertext) await em.query('UPDATE revenue_connections SET key_ciphertext = $2 WHERE id = $1', [row.id, sealed]);
  }
}

export function findPendingSync(em: EntityManager, connectionId: string): Promise<RevenueSyncEntity | null> {
  return em.findOne(RevenueSyncEntity, { where: { connectionId, status: 'pending' }, order: { id: 'ASC' } });
}

/** The last sync that ended, for its error (a failed run) or its time. */
export function findLastEndedSync(em: EntityManager, connectionId: string): Promise<RevenueSyncEntity | null> {
  return em
    .createQueryBuilder(RevenueSyncEntity, 'sync')
    .where('sync.connection_id = :connectionId', { connectionId })
    .andWhere(`(sync.status <> 'pending' OR sync.last_error IS NOT NULL)`)
    .orderBy('sync.id', 'DESC')
    .getOne();
}

export async function upsertCustomers(em: EntityManager, rows: RevenueCustomerEntity[]): Promise<void> {
  if (rows.length === 0) return;
  await em
    .createQueryBuilder()
    .insert()
    .into(RevenueCustomerEntity)
    .values(rows)
    .orUpdate(['email', 'user_id', 'deleted', 'synced_at'], ['project_id', 'customer_id'])
    .execute();
}

export async function upsertSubscriptions(em: EntityManager, rows: RevenueSubscriptionEntity[]): Promise<void> {
  if (rows.length === 0) return;
  await em
    .createQueryBuilder()
    .insert()
    .into(RevenueSubscriptionEntity)
    .values(rows)
    .orUpdate(['customer_id', 'status', 'terms', 'synced_at'], ['project_id', 'subscription_id'])
    .execute();
}

export async function upsertInvoices(em: EntityManager, rows: RevenueInvoiceEntity[]): Promise<void> {
  if (rows.length === 0) return;
  await em
    .createQueryBuilder()
    .insert()
    .into(RevenueInvoiceEntity)
    .values(rows)
    .orUpdate(['customer_id', 'status', 'currency', 'amount_paid', 'paid_at', 'synced_at'], ['project_id', 'invoice_id'])
    .execute();
}

export function listCustomers(em: EntityManager, projectId: string): Promise<RevenueCustomerEntity[]> {
  return em.find(RevenueCustomerEntity, { where: { projectId } });
}

export function listSubscriptions(em: EntityManager, projectId: string, customerIds?: string[]): Promise<RevenueSubscriptionEntity[]> {
  const qb = em.createQueryBuilder(RevenueSubscriptionEntity, 's').where('s.project_id = :projectId', { projectId });
  if (customerIds) qb.andWhere('s.customer_id IN (:...customerIds)', { customerIds: customerIds.length ? customerIds : [''] });
  return qb.orderBy('s.subscription_id', 'ASC').getMany();
}

export function listCustomerMrr(em: EntityManager, projectId: string): Promise<RevenueCustomerMrrEntity[]> {
  return em.find(RevenueCustomerMrrEntity, { where: { projectId } });
}

export async function setCustomerContact(
  em: EntityManager,
  projectId: string,
  customerId: string,
  contactId: string | null,
): Promise<void> {
  await em.update(RevenueCustomerEntity, { projectId, customerId }, { contactId });
}

export async function saveCustomerMrr(em: EntityManager, row: RevenueCustomerMrrEntity): Promise<void> {
  await em.upsert(RevenueCustomerMrrEntity, row, ['projectId', 'customerId', 'currency']);
}

export async function insertMovements(em: EntityManager, rows: RevenueMovementEntity[]): Promise<void> {
  if (rows.length > 0) await em.insert(RevenueMovementEntity, rows);
}

/** Customers (and currencies) that ever had a movement: a return to paying is then a reactivation. */
export async function customersWithMovements(em: EntityManager, projectId: string): Promise<Set<string>> {
  const rows: Array<{ key: string }> = await em.query(
    `SELECT DISTINCT customer_id || ':' || currency AS key FROM revenue_movements WHERE project_id = $1`,
    [projectId],
  );
  return new Set(rows.map((row) => row.key));
}

export function listMovements(em: EntityManager, projectId: string, before: Date): Promise<RevenueMovementEntity[]> {
  return em
    .createQueryBuilder(RevenueMovementEntity, 'm')
    .where('m.project_id = :projectId AND m.occurred_at < :before', { projectId, before })
    .orderBy('m.occurred_at', 'ASC')
    .addOrderBy('m.id', 'ASC')
    .getMany();
}

export function customersOfContact(em: EntityManager, projectId: string, contactId: string): Promise<RevenueCustomerEntity[]> {
  return em.find(RevenueCustomerEntity, { where: { projectId, contactId }, order: { customerId: 'ASC' } });
}

/** MRR per contact and currency at the last sync (customers matched to those contacts). */
export async function mrrOfContacts(
  em: EntityManager,
  projectId: string,
  contactIds: readonly string[],
): Promise<Array<{ contact_id: string; currency: string; mrr: string }>> {
  if (contactIds.length === 0) return [];
  return em.query(
    `SELECT c.contact_id, m.currency, sum(m.mrr)::bigint AS mrr
       FROM revenue_customer_mrr m JOIN revenue_customers c ON c.project_id = m.project_id AND c.customer_id = m.customer_id
      WHERE m.project_id = $1 AND c.contact_id = ANY($2::text[])
      GROUP BY c.contact_id, m.currency`,
    [projectId, [...contactIds]],
  );
}

/** Paid invoices (above zero) of customers with one of these user ids or contacts, oldest first. */
export async function paidInvoicesOfPeople(
  em: EntityManager,
  projectId: string,
  userIds: readonly string[],
  contactIds: readonly string[],
): Promise<Array<{ user_id: string | null; contact_id: string | null; currency: string; amount_paid: string; paid_at: Date }>> {
  if (userIds.length === 0 && contactIds.length === 0) return [];
  return em.query(
    `SELECT c.user_id, c.contact_id, i.currency, i.amount_paid, i.paid_at
       FROM revenue_invoices i JOIN revenue_customers c ON c.project_id = i.project_id AND c.customer_id = i.customer_id
      WHERE i.project_id = $1 AND i.status = 'paid' AND i.paid_at IS NOT NULL AND i.amount_paid > 0
        AND (c.user_id = ANY($2::text[]) OR c.contact_id = ANY($3::text[]))
      ORDER BY i.paid_at ASC, i.invoice_id ASC`,
    [projectId, [...userIds], [...contactIds]],
  );
}

/**
 * Erasure: forgets the person on processor customers: the email, the metadata user id and the
 * link to their contact (by email, user id, or the erased contact's id). The amounts stay, so the
 * figures do not change; the processor keeps its own records, which this read-only service cannot touch.
 */
export async function forgetPersonOnCustomers(em: EntityManager, person: PersonToErase): Promise<number> {
  const [, affected] = (await em.query(
    `UPDATE revenue_customers SET email = NULL, user_id = NULL, contact_id = NULL
      WHERE project_id = $1
        AND ((email IS NOT NULL AND email = $2) OR user_id = ANY($3::text[]) OR contact_id = ANY($4::text[]))`,
    [person.projectId, person.email, [...person.userIds], [...person.recordIds]],
  )) as [unknown, number];
  return affected;
}
