import type { EntityManager } from 'typeorm';
import type { NotificationEntity } from '../entities/notification.entity';

/*
 * The SQL of sending and management. Raw where one statement must do what TypeORM would do in
 * many (the quota's conditional increment, a group's recipients) or where the statement is the
 * point (the stats aggregates); every statement filters by project.
 */

/**
 * Counts one send against the project's month, unless the month is used up: one conditional
 * upsert, so concurrent sends queue on the row lock and each re-checks `sent < limit` after the
 * previous one commits (READ COMMITTED re-evaluates ON CONFLICT DO UPDATE's WHERE on the newest
 * row version). Returns the month's count after this send, or null when the limit is reached.
 */
export async function consumeQuota(em: EntityManager, projectId: string, month: string, limit: number): Promise<number | null> {
  const rows: { sent: number }[] = await em.query(
    `INSERT INTO notification_usage AS u (project_id, month, sent)
     SELECT $1, $2, 1 WHERE $3::int > 0
     ON CONFLICT (project_id, month) DO UPDATE SET sent = u.sent + 1 WHERE u.sent < $3::int
     RETURNING u.sent`,
    [projectId, month, limit],
  );
  return rows.length > 0 ? Number(rows[0].sent) : null;
}

/** Gives one send back to its month (a scheduled notification deleted before it showed). */
export async function giveBackQuota(em: EntityManager, projectId: string, month: string): Promise<void> {
  await em.query('UPDATE notification_usage SET sent = sent - 1 WHERE project_id = $1 AND month = $2 AND sent > 0', [projectId, month]);
}

export async function usedThisMonth(em: EntityManager, projectId: string, month: string): Promise<number> {
  const rows: { sent: number }[] = await em.query('SELECT sent FROM notification_usage WHERE project_id = $1 AND month = $2', [
    projectId,
    month,
  ]);
  return rows.length > 0 ? Number(rows[0].sent) : 0;
}

export async function insertNotification(em: EntityManager, row: NotificationEntity): Promise<void> {
  await em.query(
    `INSERT INTO notifications (id, project_id, kind, user_id, title, body, action_url, icon, category, actions, data, reactions, pinned,
       status, visible_at, recipient_count, usage_month, changelog_entry_id, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11::jsonb, $12::jsonb, $13, $14, $15, $16, $17, $18, $19)`,
    [
      row.id,
      row.projectId,
      row.kind,
      row.userId,
      row.title,
      row.body,
      row.actionUrl,
      row.icon,
      row.category,
      JSON.stringify(row.actions),
      row.data === null ? null : JSON.stringify(row.data),
      row.reactions === null ? null : JSON.stringify(row.reactions),
      row.pinned,
      row.status,
      row.visibleAt,
      row.recipientCount,
      row.usageMonth,
      row.changelogEntryId,
      row.createdAt,
    ],
  );
}

/**
 * A send's people, in one statement whatever their number (10,000 user ids are one array
 * parameter): a group of that size inserts in tens of milliseconds instead of 10,000 round trips.
 */
export async function insertRecipients(
  em: EntityManager,
  projectId: string,
  notificationId: string,
  userIds: readonly string[],
  visibleAt: Date,
): Promise<void> {
  await em.query(
    `INSERT INTO notification_recipients (notification_id, user_id, project_id, visible_at)
     SELECT $1, u.user_id, $2, $3 FROM unnest($4::varchar[]) AS u(user_id)`,
    [notificationId, projectId, visibleAt, userIds],
  );
}

interface ReceiptCounts {
  read: number;
  clicked: number;
  reactions: Record<string, number>;
}

/** Reads, clicks and reactions of one notification: one pass over its receipts (primary key prefix). */
export async function receiptCounts(em: EntityManager, projectId: string, notificationId: string): Promise<ReceiptCounts> {
  const rows: { reaction: string | null; read: string; clicked: string; people: string }[] = await em.query(
    `SELECT reaction, COUNT(read_at) AS read, COUNT(clicked_at) AS clicked, COUNT(*) AS people
     FROM notification_receipts WHERE notification_id = $1 AND project_id = $2 GROUP BY reaction`,
    [notificationId, projectId],
  );
  const counts: ReceiptCounts = { read: 0, clicked: 0, reactions: {} };
  for (const row of rows) {
    counts.read += Number(row.read);
    counts.clicked += Number(row.clicked);
    if (row.reaction !== null) counts.reactions[row.reaction] = Number(row.people);
  }
  return counts;
}

/** Bell users whose bell asked at or after `since` (ix_bell_users_last_seen). */
export async function bellUsersSeenSince(em: EntityManager, projectId: string, since: Date): Promise<number> {
  const rows: { count: string }[] = await em.query(
    'SELECT COUNT(*) AS count FROM bell_users WHERE project_id = $1 AND last_seen_at >= $2',
    [projectId, since],
  );
  return Number(rows[0].count);
}

/**
 * A changelog entry's bell broadcast (ChangelogBroadcasts), unless the entry has one already: the
 * unique index on `changelog_entry_id` decides. Parameters: id, project, title, body, link,
 * category, data, visible at, entry id, created at.
 */
export async function insertChangelogBroadcast(em: EntityManager, params: unknown[]): Promise<void> {
  await em.query(
    `INSERT INTO notifications
         (id, project_id, kind, user_id, title, body, action_url, icon, category, actions, data, reactions, pinned,
          status, visible_at, recipient_count, usage_month, changelog_entry_id, created_at)
       VALUES ($1, $2, 'broadcast', NULL, $3, $4, $5, 'info', $6, '[]'::jsonb, $7::jsonb, NULL, false,
               'visible', $8, 0, NULL, $9, $10)
       ON CONFLICT (changelog_entry_id) WHERE changelog_entry_id IS NOT NULL DO NOTHING`,
    params,
  );
}

/** Query-builder condition on notifications `n`: sent to the user `:userId` of the project `:projectId` (ix_notification_recipients_user). */
export const SENT_TO_USER =
  'n.id IN (SELECT r.notification_id FROM notification_recipients r WHERE r.project_id = :projectId AND r.user_id = :userId)';

/** Query-builder condition on notifications `n`: someone (`byUser`: the user `:userId`) has read it. */
export function readReceiptExists(byUser: boolean): string {
  const readBy = byUser ? 'AND rc.user_id = :userId' : '';
  return `EXISTS (SELECT 1 FROM notification_receipts rc WHERE rc.notification_id = n.id AND rc.read_at IS NOT NULL ${readBy})`;
}
