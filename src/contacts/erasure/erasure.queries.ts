import type { EntityManager } from 'typeorm';

/**
 * The contacts module's own part of an erasure, and the statements it still runs for the feature
 * modules whose tables hold a person (waitlist, feedback, changelog, bell), scoped by project and
 * keyed by the person's email or user id, all in the erasure's one transaction. Modules that own
 * such a table contribute their statement through the erasure registry instead
 * (infra/erasure/erasure-registry.ts): mail, idempotent answers, event payloads and the webhook
 * delivery log do, and a new table that stores an email or a user id should too (docs/contacts.md).
 */

/** What the statements of this file removed or blanked, per kind. */
export interface ErasureCounts {
  contact: number;
  waitlist_signups: number;
  feedback: number;
  changelog_subscribers: number;
  notification_receipts: number;
  bell_users: number;
  notification_recipients: number;
  notifications: number;
  changelog_readers: number;
  changelog_reactions: number;
}

// A statement that deletes the person's own records answers their ids (RETURNING id): other
// modules' stored copies may name the person by them (ErasedRecords.recordIds).
type Statement = [kind: keyof ErasureCounts, sql: string];

const BY_EMAIL: Statement[] = [
  // Their email tokens go with them (ON DELETE CASCADE); people they referred keep their places.
  ['waitlist_signups', 'DELETE FROM waitlist_signups WHERE project_id = $1 AND email = $2 RETURNING id'],
  // The text stays (it is about the product); the email and the user id that name the person go.
  [
    'feedback',
    'UPDATE feedback SET email = NULL, user_id = CASE WHEN user_id = $3 THEN NULL ELSE user_id END WHERE project_id = $1 AND email = $2',
  ],
  ['changelog_subscribers', 'DELETE FROM changelog_subscribers WHERE project_id = $1 AND email = $2 RETURNING id'],
];

const BY_USER_ID: Statement[] = [
  ['feedback', 'UPDATE feedback SET user_id = NULL WHERE project_id = $1 AND user_id = $2'],
  ['notification_receipts', 'DELETE FROM notification_receipts WHERE project_id = $1 AND user_id = $2'],
  ['notification_recipients', 'DELETE FROM notification_recipients WHERE project_id = $1 AND user_id = $2'],
  ['bell_users', 'DELETE FROM bell_users WHERE project_id = $1 AND user_id = $2'],
  // Notifications addressed to this one person; broadcasts and groups stay (they name nobody).
  ['notifications', 'DELETE FROM notifications WHERE project_id = $1 AND user_id = $2'],
  // What the changelog widget knows of them: entries they were shown, and their reactions (the
  // counts those reactions added go too, so totals stay the number of people holding one).
  ['changelog_readers', 'DELETE FROM changelog_readers WHERE project_id = $1 AND user_id = $2'],
  [
    'changelog_reactions',
    `WITH gone AS (DELETE FROM changelog_reactions WHERE project_id = $1 AND reactor = 'u:' || $2::text RETURNING entry_id, reaction),
     counted AS (UPDATE changelog_reaction_counts c SET count = c.count - g.n
       FROM (SELECT entry_id, reaction, count(*)::int AS n FROM gone GROUP BY 1, 2) g
       WHERE c.entry_id = g.entry_id AND c.reaction = g.reaction RETURNING 1)
     SELECT count(*)::int AS n FROM gone`,
  ],
];

export interface ErasedPerson {
  id: string;
  email: string | null;
  userId: string | null;
}

/** The contact, locked until the transaction ends; null when the project has no such contact. */
export async function lockContact(em: EntityManager, projectId: string, contactId: string): Promise<ErasedPerson | null> {
  const rows: { id: string; email: string | null; user_id: string | null }[] = await em.query(
    'SELECT id, email, user_id FROM contacts WHERE project_id = $1 AND id = $2 FOR UPDATE',
    [projectId, contactId],
  );
  return rows.length > 0 ? { id: rows[0].id, email: rows[0].email, userId: rows[0].user_id } : null;
}

export interface ErasedRecords {
  counts: ErasureCounts;
  /** Ids of the person's own records deleted here: the contact, waitlist signups, changelog subscribers. */
  recordIds: string[];
}

/** Removes the person from the tables this file names, the contact included; answers the counts per kind. */
export async function erasePerson(em: EntityManager, projectId: string, person: ErasedPerson): Promise<ErasedRecords> {
  const counts: ErasureCounts = {
    contact: 0,
    waitlist_signups: 0,
    feedback: 0,
    changelog_subscribers: 0,
    notification_receipts: 0,
    bell_users: 0,
    notification_recipients: 0,
    notifications: 0,
    changelog_readers: 0,
    changelog_reactions: 0,
  };
  const recordIds: string[] = [];
  const run = async (kind: keyof ErasureCounts, sql: string, params: unknown[]) => {
    const outcome = await affected(em, sql, params);
    counts[kind] += outcome.count;
    recordIds.push(...outcome.ids);
  };
  if (person.email !== null) {
    for (const [kind, sql] of BY_EMAIL) {
      await run(kind, sql, kind === 'feedback' ? [projectId, person.email, person.userId] : [projectId, person.email]);
    }
  }
  if (person.userId !== null) {
    for (const [kind, sql] of BY_USER_ID) await run(kind, sql, [projectId, person.userId]);
  }
  await run('contact', 'DELETE FROM contacts WHERE project_id = $1 AND id = $2 RETURNING id', [projectId, person.id]);
  return { counts, recordIds };
}

async function affected(em: EntityManager, sql: string, params: unknown[]): Promise<{ count: number; ids: string[] }> {
  const result: unknown = await em.query(sql, params);
  // A statement that counts for itself (a CTE ending in `SELECT … AS n`) answers one row.
  const [first] = result as { n?: unknown }[];
  if (!Array.isArray(first) && typeof first?.n === 'number') return { count: first.n, ids: [] };
  // TypeORM answers DELETE and UPDATE with [rows, affected count]; rows hold what RETURNING named.
  const [rows, count] = result as [{ id?: unknown }[], number];
  return { count, ids: rows.flatMap((row) => (typeof row.id === 'string' ? [row.id] : [])) };
}
