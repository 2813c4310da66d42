import type { EntityManager } from 'typeorm';
import type { NotificationAction, NotificationIcon, NotificationKind, NotificationStatus } from '../entities/notification.entity';

/**
 * The bell's hot SQL. Raw statements because the bell is polled by every signed-in browser: each
 * read is one statement, and their plans are pinned by a test (test/notifications/bell-plan.e2e-spec.ts).
 *
 * What a person's bell holds is the union of two index range scans, never a scan of the project:
 * - their own notifications: IX_RECIPIENTS_USER (project_id, user_id, visible_at), and
 * - the project's broadcasts: IX_NOTIFICATIONS_BROADCASTS (project_id, visible_at) WHERE kind =
 *   'broadcast', shown for BROADCAST_WINDOW_DAYS after they showed, pinned ones until retention
 *   deletes them (90 days), so this half is bounded by the broadcasts of the retention period.
 * Both only take what is visible by `now`: a scheduled notification's `visible_at` (also copied
 * onto its recipients) is its `send_at`, so it stays hidden without waiting for its release job.
 * Per-person state is a receipt looked up by its primary key (notification_id, user_id).
 */
/** Spec: a broadcast shows in a bell for 30 days after sending (pinned ones stay). */
const BROADCAST_WINDOW_DAYS = 30;
const DAY_MS = 86_400_000;

/** Who and when a bell statement is about. */
export interface BellScope {
  projectId: string;
  userId: string;
  now: Date;
}

/** A notification with the asking person's receipt, as the bell statements return it. */
export interface BellRow {
  id: string;
  projectId: string;
  kind: NotificationKind;
  title: string;
  body: string;
  actionUrl: string | null;
  icon: NotificationIcon;
  category: string | null;
  actions: NotificationAction[];
  data: Record<string, unknown> | null;
  reactions: string[] | null;
  pinned: boolean;
  status: NotificationStatus;
  visibleAt: Date;
  createdAt: Date;
  readAt: Date | null;
  clickedAt: Date | null;
  archivedAt: Date | null;
  reaction: string | null;
}

export function broadcastWindowStart(now: Date): Date {
  return new Date(now.getTime() - BROADCAST_WINDOW_DAYS * DAY_MS);
}

// $1 project, $2 user, $3 now, $4 start of the broadcast window. Every fragment below uses them.
const scopeParams = (scope: BellScope): unknown[] => [scope.projectId, scope.userId, scope.now, broadcastWindowStart(scope.now)];

/** The person's targeted notifications: a range of IX_RECIPIENTS_USER (`after`: a lower bound, "only newer"). */
const ownIds = (after = '') => `SELECT r.notification_id AS id FROM notification_recipients r
   WHERE r.project_id = $1 AND r.user_id = $2 AND r.visible_at <= $3${after && ` AND r.visible_at > ${after}`}`;

/** The broadcasts their bell shows: a range of IX_NOTIFICATIONS_BROADCASTS. */
const broadcasts = (columns: string, after = '') => `SELECT ${columns} FROM notifications b
   WHERE b.project_id = $1 AND b.kind = 'broadcast' AND b.visible_at <= $3 AND (b.visible_at > $4 OR b.pinned)${
     after && ` AND b.visible_at > ${after}`
   }`;

/** A receipt that takes a notification out of the unread count: read (a click and an archive also read). */
const DONE_RECEIPT = (alias: string) => `EXISTS (SELECT 1 FROM notification_receipts x
     WHERE x.notification_id = ${alias} AND x.user_id = $2 AND (x.read_at IS NOT NULL OR x.archived_at IS NOT NULL))`;

/**
 * The unread count: ONE statement, two index range scans (the person's recipients and the
 * broadcast window), each anti-joined with the person's receipts by primary key. Its cost follows
 * the person's own notifications and the window's broadcasts, never the project's totals.
 */
const UNREAD_COUNT = `(SELECT count(*) FROM notification_recipients r
    WHERE r.project_id = $1 AND r.user_id = $2 AND r.visible_at <= $3 AND NOT ${DONE_RECEIPT('r.notification_id')})
  + (SELECT count(*) FROM notifications b
    WHERE b.project_id = $1 AND b.kind = 'broadcast' AND b.visible_at <= $3 AND (b.visible_at > $4 OR b.pinned)
      AND NOT ${DONE_RECEIPT('b.id')})`;
export const UNREAD_COUNT_SQL = `SELECT ${UNREAD_COUNT} AS unread_count`;

/**
 * The unread count and the next time it can change by itself, in ONE statement: the first of
 * (a) the person's next notification to show, (b) the project's next broadcast to show, and (c) the
 * moment the oldest unpinned broadcast of the window leaves it. Each is the first row of a range
 * of the same two indexes the count reads, so a poll that misses the cache costs about what the
 * count alone costs. NULL: nothing is due, the count stays until something is written.
 */
export const BELL_STATE_SQL = `SELECT ${UNREAD_COUNT} AS unread_count,
  LEAST(
    (SELECT min(r.visible_at) FROM notification_recipients r WHERE r.project_id = $1 AND r.user_id = $2 AND r.visible_at > $3),
    (SELECT min(b.visible_at) FROM notifications b WHERE b.project_id = $1 AND b.kind = 'broadcast' AND b.visible_at > $3),
    (SELECT min(b.visible_at) FROM notifications b
      WHERE b.project_id = $1 AND b.kind = 'broadcast' AND b.visible_at > $4 AND b.visible_at <= $3 AND NOT b.pinned)
      + interval '${BROADCAST_WINDOW_DAYS * 24} hours'
  ) AS next_change_at`;

interface BellStateRow {
  unreadCount: number;
  /** When the count can next change without a write (a notification showing, a broadcast leaving the window). */
  nextChangeAt: Date | null;
}

export async function readBellState(em: Pick<EntityManager, 'query'>, scope: BellScope): Promise<BellStateRow> {
  const rows: { unread_count: string; next_change_at: Date | null }[] = await em.query(BELL_STATE_SQL, scopeParams(scope));
  return { unreadCount: Number(rows[0].unread_count), nextChangeAt: rows[0].next_change_at ? new Date(rows[0].next_change_at) : null };
}

export async function countUnread(em: Pick<EntityManager, 'query'>, scope: BellScope): Promise<number> {
  const rows: { unread_count: string }[] = await em.query(UNREAD_COUNT_SQL, scopeParams(scope));
  return Number(rows[0].unread_count);
}

interface BellListFilter {
  /** Only notifications that showed after this time. */
  since?: Date;
  category?: string;
  /** `only`: the archived ones; otherwise archived ones are left out. */
  archived?: 'only';
  unreadOnly?: boolean;
  limit: number;
}

const BELL_COLUMNS = `n.id, n.project_id AS "projectId", n.kind, n.title, n.body, n.action_url AS "actionUrl", n.icon, n.category,
  n.actions, n.data, n.reactions, n.pinned, n.status, n.visible_at AS "visibleAt", n.created_at AS "createdAt",
  x.read_at AS "readAt", x.clicked_at AS "clickedAt", x.archived_at AS "archivedAt", x.reaction`;

/** The list SQL and its parameters: both halves of the bell, joined to the rows and the person's receipts. */
export function bellListStatement(scope: BellScope, filter: BellListFilter): { sql: string; params: unknown[] } {
  const params = scopeParams(scope);
  const where: string[] = [filter.archived === 'only' ? 'x.archived_at IS NOT NULL' : 'x.archived_at IS NULL'];
  if (filter.unreadOnly) where.push('x.read_at IS NULL');
  if (filter.category !== undefined) where.push(`n.category = $${params.push(filter.category)}`);
  // "Only newer": pushed into both scans, so a poll with `since` reads only the new part of each range.
  const since = filter.since ? `$${params.push(filter.since)}` : '';
  const limit = `$${params.push(filter.limit)}`;
  // The broadcast half already has its rows; the person's half fetches each by primary key.
  const sql = `SELECT ${BELL_COLUMNS}
  FROM (SELECT n.* FROM (${ownIds(since)}) own JOIN notifications n ON n.id = own.id
        UNION ALL
        ${broadcasts('b.*', since)}) n
  LEFT JOIN notification_receipts x ON x.notification_id = n.id AND x.user_id = $2
  WHERE ${where.join(' AND ')}
  ORDER BY (n.pinned AND x.archived_at IS NULL) DESC, n.visible_at DESC, n.id DESC
  LIMIT ${limit}`;
  return { sql, params };
}

export async function listBell(em: Pick<EntityManager, 'query'>, scope: BellScope, filter: BellListFilter): Promise<BellRow[]> {
  const { sql, params } = bellListStatement(scope, filter);
  return em.query(sql, params);
}

/** Whether the notification is in this person's bell right now (theirs or a shown broadcast), as a SQL condition on `n`. */
const IN_BELL = `n.project_id = $1 AND n.visible_at <= $3
  AND ((n.kind = 'broadcast' AND (n.visible_at > $4 OR n.pinned))
       OR EXISTS (SELECT 1 FROM notification_recipients r WHERE r.notification_id = n.id AND r.user_id = $2))`;

/** How a receipt write changes the row; `now` is $6. Columns left out are kept. */
export interface ReceiptChange {
  read?: boolean;
  clicked?: boolean;
  /** true archives (and reads), false restores. */
  archived?: boolean;
  /** A name sets the person's reaction, null removes it. */
  reaction?: string | null;
}

function receiptAssignments(change: ReceiptChange): { insert: string[]; update: string[] } {
  // Values for the first insert, and the update of an existing receipt (keeping first-touch times).
  const read = change.read || change.clicked || change.archived === true;
  return {
    insert: [
      read ? '$6' : 'NULL',
      change.clicked ? '$6' : 'NULL',
      change.archived === true ? '$6' : 'NULL',
      change.reaction !== undefined && change.reaction !== null ? '$7' : 'NULL',
    ],
    update: [
      ...(read ? ['read_at = COALESCE(notification_receipts.read_at, EXCLUDED.read_at)'] : []),
      ...(change.clicked ? ['clicked_at = COALESCE(notification_receipts.clicked_at, EXCLUDED.clicked_at)'] : []),
      ...(change.archived === true ? ['archived_at = COALESCE(notification_receipts.archived_at, EXCLUDED.archived_at)'] : []),
      ...(change.archived === false ? ['archived_at = NULL'] : []),
      ...(change.reaction !== undefined ? ['reaction = EXCLUDED.reaction'] : []),
      'updated_at = EXCLUDED.updated_at',
    ],
  };
}

/**
 * One statement: finds the notification in the person's bell and upserts their receipt (written on
 * first touch, concurrent touches meet on the primary key). No row: the notification is not in this
 * person's bell (not theirs, scheduled, gone from the window, another project's).
 */
export async function touchReceipt(
  em: Pick<EntityManager, 'query'>,
  scope: BellScope,
  notificationId: string,
  change: ReceiptChange,
): Promise<BellRow | null> {
  const { insert, update } = receiptAssignments(change);
  const sql = `WITH target AS (SELECT n.* FROM notifications n WHERE n.id = $5 AND ${IN_BELL}),
  upserted AS (
    INSERT INTO notification_receipts (notification_id, user_id, project_id, read_at, clicked_at, archived_at, reaction, updated_at)
    SELECT target.id, $2, $1, ${insert.join(', ')}, $6 FROM target
    ON CONFLICT (notification_id, user_id) DO UPDATE SET ${update.join(', ')}
    RETURNING *)
  SELECT ${BELL_COLUMNS} FROM target n JOIN upserted x ON x.notification_id = n.id`;
  const params = [...scopeParams(scope), notificationId, scope.now];
  if (change.reaction !== undefined) params.push(change.reaction);
  const rows: BellRow[] = await em.query(sql, params);
  return rows[0] ?? null;
}

/**
 * Removes the person's reaction, if they have a receipt (no receipt is written for it). Null: the
 * notification is not in their bell.
 */
export async function clearReaction(em: Pick<EntityManager, 'query'>, scope: BellScope, notificationId: string): Promise<BellRow | null> {
  const rows: BellRow[] = await em.query(
    `WITH target AS (SELECT n.* FROM notifications n WHERE n.id = $5 AND ${IN_BELL}),
     updated AS (
       UPDATE notification_receipts x SET reaction = NULL, updated_at = $6 FROM target
       WHERE x.notification_id = target.id AND x.user_id = $2 RETURNING x.*)
     SELECT ${BELL_COLUMNS} FROM target n LEFT JOIN updated x ON x.notification_id = n.id`,
    [...scopeParams(scope), notificationId, scope.now],
  );
  return rows[0] ?? null;
}

/** The notification in the person's bell with their receipt, if any, without writing. */
export async function findInBell(em: Pick<EntityManager, 'query'>, scope: BellScope, notificationId: string): Promise<BellRow | null> {
  const rows: BellRow[] = await em.query(
    `SELECT ${BELL_COLUMNS} FROM notifications n
     LEFT JOIN notification_receipts x ON x.notification_id = n.id AND x.user_id = $2
     WHERE n.id = $5 AND ${IN_BELL}`,
    [...scopeParams(scope), notificationId],
  );
  return rows[0] ?? null;
}

/**
 * Read-all in one statement: a receipt for every unread notification of the bell, broadcasts
 * included (most have no receipt yet), inserted or completed. Returns how many became read.
 */
export async function markAllRead(em: Pick<EntityManager, 'query'>, scope: BellScope, category: string | undefined): Promise<number> {
  const params = [...scopeParams(scope), scope.now];
  const byCategory = category === undefined ? '' : ` AND n.category = $${params.push(category)}`;
  const rows: unknown[] = await em.query(
    `INSERT INTO notification_receipts (notification_id, user_id, project_id, read_at, updated_at)
     SELECT n.id, $2, $1, $5, $5
     FROM (${ownIds()} UNION ALL ${broadcasts('b.id')}) ids
     JOIN notifications n ON n.id = ids.id AND n.project_id = $1${byCategory}
     WHERE NOT ${DONE_RECEIPT('n.id')}
     ON CONFLICT (notification_id, user_id) DO UPDATE SET read_at = EXCLUDED.read_at, updated_at = EXCLUDED.updated_at
       WHERE notification_receipts.read_at IS NULL
     RETURNING 1`,
    params,
  );
  return rows.length;
}

/**
 * Records that this person's bell asked (bell_users), on their first counted read of the hour:
 * broadcast `reached` and `active_7d` come from it.
 */
export async function recordBellUser(em: Pick<EntityManager, 'query'>, projectId: string, userId: string, now: Date): Promise<void> {
  await em.query(
    `INSERT INTO bell_users (project_id, user_id, first_seen_at, last_seen_at) VALUES ($1, $2, $3, $3)
     ON CONFLICT (project_id, user_id) DO UPDATE SET last_seen_at = GREATEST(bell_users.last_seen_at, EXCLUDED.last_seen_at)`,
    [projectId, userId, now],
  );
}

/**
 * Fragment for the changelog's after-reading groups (ChangelogBroadcasts re-exports it): a
 * sub-select of the user ids whose bell first asked in the project `projectIdSql` before `beforeSql`.
 */
export function bellUserIdsSeenBefore(projectIdSql: string, beforeSql: string): string {
  return `SELECT user_id FROM bell_users WHERE project_id = ${projectIdSql} AND first_seen_at < ${beforeSql}`;
}

/** People whose bell has asked at least once (bell_users): who a changelog broadcast can reach. */
export async function countBellUsers(em: Pick<EntityManager, 'query'>, projectId: string): Promise<number> {
  const rows: { count: string }[] = await em.query('SELECT count(*) AS count FROM bell_users WHERE project_id = $1', [projectId]);
  return Number(rows[0]?.count ?? 0);
}
