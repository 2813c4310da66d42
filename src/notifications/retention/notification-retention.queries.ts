import type { EntityManager } from 'typeorm';
import { type ErasedRecords, erasedRowsOf } from '../../infra/erasure/erasure-registry.service';
import type { PersonToErase } from '../../infra/erasure/person-match';

/** Notifications that showed before `cutoff`, oldest first (IX_NOTIFICATIONS_VISIBLE_AT): ids and their projects. */
export async function expiredNotifications(
  em: EntityManager,
  cutoff: Date,
  limit: number,
): Promise<{ ids: string[]; projectIds: string[] }> {
  const rows: { id: string; project_id: string }[] = await em.query(
    'SELECT id, project_id FROM notifications WHERE visible_at < $1 ORDER BY visible_at LIMIT $2',
    [cutoff, limit],
  );
  return { ids: rows.map((row) => row.id), projectIds: [...new Set(rows.map((row) => row.project_id))] };
}

/**
 * Deletes up to `limit` rows of `table` that belong to the given notifications; answers how many.
 * Each of these tables leads its primary key or an index with notification_id.
 */
export async function deleteChildRowsBatch(
  em: EntityManager,
  table: 'notification_receipts' | 'notification_recipients' | 'notification_releases',
  notificationIds: string[],
  limit: number,
): Promise<number> {
  // The table name is one of three constants, never input. ctid picks the batch's rows without a sort.
  const [, affected] = (await em.query(
    `DELETE FROM ${table} WHERE ctid = ANY (ARRAY(SELECT ctid FROM ${table} WHERE notification_id = ANY ($1) LIMIT $2))`,
    [notificationIds, limit],
  )) as [unknown[], number];
  return affected;
}

export async function deleteNotifications(em: EntityManager, ids: string[]): Promise<number> {
  const [, affected] = (await em.query('DELETE FROM notifications WHERE id = ANY ($1)', [ids])) as [unknown[], number];
  return affected;
}

/** Deletes up to `limit` bell users of one project whose bell last asked before `cutoff` (ix_bell_users_last_seen). */
export async function deleteBellUsersBatch(em: EntityManager, projectId: string, cutoff: Date, limit: number): Promise<number> {
  const [, affected] = (await em.query(
    `DELETE FROM bell_users WHERE project_id = $1 AND user_id IN (
       SELECT user_id FROM bell_users WHERE project_id = $1 AND last_seen_at < $2 LIMIT $3)`,
    [projectId, cutoff, limit],
  )) as [unknown[], number];
  return affected;
}

/**
 * Erasure (infra/erasure): what the bell holds of the person's user id, one statement per table
 * in this order (receipts, group recipients, bell users, then the notifications addressed to them
 * alone; broadcasts and groups name nobody and stay). Each entry counts under its table's name.
 */
export const PERSON_ERASURE_STATEMENTS = [
  ['notification_receipts', 'DELETE FROM notification_receipts WHERE project_id = $1 AND user_id = $2'],
  ['notification_recipients', 'DELETE FROM notification_recipients WHERE project_id = $1 AND user_id = $2'],
  ['bell_users', 'DELETE FROM bell_users WHERE project_id = $1 AND user_id = $2'],
  ['notifications', 'DELETE FROM notifications WHERE project_id = $1 AND user_id = $2'],
] as const;

/** Runs one of PERSON_ERASURE_STATEMENTS for each of the person's user ids; answers the rows deleted. */
export async function deletePersonRows(em: EntityManager, sql: string, person: PersonToErase): Promise<ErasedRecords> {
  let count = 0;
  for (const userId of person.userIds) count += erasedRowsOf(await em.query(sql, [person.projectId, userId])).count;
  return { count, recordIds: [] };
}
