import type { EntityManager } from 'typeorm';
import { hashLinkToken } from '../../common/email-links/link-tokens';
import { type ErasedRecords, erasedRowsOf } from '../../infra/erasure/erasure-registry.service';
import type { PersonToErase } from '../../infra/erasure/person-match';
import { ChangelogSubscriberTokenEntity, type SubscriberTokenPurpose } from '../entities/changelog-subscriber-token.entity';
import { ChangelogSubscriberEntity } from '../entities/changelog-subscriber.entity';

/** One email per person per project: the index that turns a second subscribe into ALREADY_SUBSCRIBED. */
export const UQ_SUBSCRIBER_EMAIL = 'uq_changelog_subscribers_project_email';

// Any fixed number: the first half of the two-part advisory lock key that serializes a project's
// new subscribers while the plan limit is checked (the idempotency store uses another number).
const SUBSCRIBER_LIMIT_LOCK = 0x43_53_55_42; // "CSUB"

/** A stored link token: a row of changelog_subscriber_tokens. */
export interface SubscriberTokenRow {
  tokenHash: string;
  projectId: string;
  subscriberId: string;
  purpose: SubscriberTokenPurpose;
  createdAt: Date;
}

/**
 * Holds the project's "new subscriber" lock until the transaction ends, so two concurrent
 * subscribes cannot both see room for one more (count, then insert, is otherwise a race).
 */
export async function lockNewSubscribers(em: EntityManager, projectId: string): Promise<void> {
  await em.query('SELECT pg_advisory_xact_lock($1::int, hashtext($2))', [SUBSCRIBER_LIMIT_LOCK, projectId]);
}

export async function countSubscribers(em: EntityManager, projectId: string): Promise<number> {
  const [row]: { count: string }[] = await em.query('SELECT count(*) AS count FROM changelog_subscribers WHERE project_id = $1', [
    projectId,
  ]);
  return Number(row.count);
}

export async function insertSubscriber(em: EntityManager, row: ChangelogSubscriberEntity): Promise<void> {
  await em.query(
    `INSERT INTO changelog_subscribers (id, project_id, email, confirmed, confirmed_at, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
    [row.id, row.projectId, row.email, row.confirmed, row.confirmedAt, row.createdAt],
  );
}

/** Replaces the subscriber's labels (none: every public entry). */
export async function replaceSubscriberLabels(em: EntityManager, subscriberId: string, labelIds: readonly string[]): Promise<void> {
  await em.query('DELETE FROM changelog_subscriber_labels WHERE subscriber_id = $1', [subscriberId]);
  if (labelIds.length === 0) return;
  await em.query(
    `INSERT INTO changelog_subscriber_labels (subscriber_id, label_id) SELECT $1, unnest($2::varchar[]) ON CONFLICT DO NOTHING`,
    [subscriberId, labelIds],
  );
}

/** The slugs of the labels the subscriber follows, in slug order. */
export async function subscriberLabelSlugs(em: EntityManager, subscriberId: string): Promise<string[]> {
  const rows: { slug: string }[] = await em.query(
    `SELECT l.slug FROM changelog_subscriber_labels sl JOIN changelog_labels l ON l.id = sl.label_id
     WHERE sl.subscriber_id = $1 ORDER BY l.slug`,
    [subscriberId],
  );
  return rows.map((row) => row.slug);
}

/** All tokens of one email (or of a whole batch of emails) in one statement. */
export async function insertSubscriberTokens(em: EntityManager, tokens: readonly SubscriberTokenRow[]): Promise<void> {
  if (tokens.length === 0) return;
  await em.query(
    `INSERT INTO changelog_subscriber_tokens (token_hash, project_id, subscriber_id, purpose, created_at)
     SELECT * FROM unnest($1::char(64)[], $2::varchar[], $3::varchar[], $4::varchar[], $5::timestamptz[])`,
    [
      tokens.map((token) => token.tokenHash),
      tokens.map((token) => token.projectId),
      tokens.map((token) => token.subscriberId),
      tokens.map((token) => token.purpose),
      tokens.map((token) => token.createdAt),
    ],
  );
}

export interface MailingRecipient {
  id: string;
  email: string;
}

/**
 * The next confirmed subscribers (in id order, after `afterId`) who should get the entry: those
 * following none of the labels (everything) and those following at least one of the entry's
 * labels. Served by ix_changelog_subscribers_project_id and the primary key of the labels table.
 */
export async function nextMailingRecipients(
  em: EntityManager,
  mailing: { projectId: string; entryId: string; afterId: string | null },
  limit: number,
): Promise<MailingRecipient[]> {
  return em.query(
    `SELECT s.id, s.email FROM changelog_subscribers s
     WHERE s.project_id = $1 AND s.confirmed AND ($3::varchar IS NULL OR s.id > $3)
       AND (NOT EXISTS (SELECT 1 FROM changelog_subscriber_labels sl WHERE sl.subscriber_id = s.id)
            OR EXISTS (SELECT 1 FROM changelog_subscriber_labels sl
                       JOIN changelog_entry_labels el ON el.label_id = sl.label_id AND el.entry_id = $2
                       WHERE sl.subscriber_id = s.id))
     ORDER BY s.id
     LIMIT $4`,
    [mailing.projectId, mailing.entryId, mailing.afterId, limit],
  );
}

/** How many confirmed subscribers the entry's mailing would reach (the rule of nextMailingRecipients). */
export async function countMailingRecipients(em: EntityManager, projectId: string, entryId: string): Promise<number> {
  const rows: { count: string }[] = await em.query(
    `SELECT count(*) AS count FROM changelog_subscribers s
     WHERE s.project_id = $1 AND s.confirmed
       AND (NOT EXISTS (SELECT 1 FROM changelog_subscriber_labels sl WHERE sl.subscriber_id = s.id)
            OR EXISTS (SELECT 1 FROM changelog_subscriber_labels sl
                       JOIN changelog_entry_labels el ON el.label_id = sl.label_id AND el.entry_id = $2
                       WHERE sl.subscriber_id = s.id))`,
    [projectId, entryId],
  );
  return Number(rows[0]?.count ?? 0);
}

/**
 * The subscriber a link token of `purpose` belongs to; with `forUpdate` (inside a transaction)
 * locked for the rest of it. A token of another purpose finds nobody.
 */
export async function findSubscriberByToken(
  em: EntityManager,
  token: string,
  purpose: SubscriberTokenPurpose,
  forUpdate = true,
): Promise<ChangelogSubscriberEntity | null> {
  const link = await em.findOneBy(ChangelogSubscriberTokenEntity, { tokenHash: hashLinkToken(token), purpose });
  if (!link) return null;
  return em.findOne(ChangelogSubscriberEntity, {
    where: { id: link.subscriberId },
    ...(forUpdate ? { lock: { mode: 'pessimistic_write' } } : {}),
  });
}

/** Erasure (infra/erasure): the person's subscriptions, by email, with their tokens and labels (ON DELETE CASCADE); answers their ids. */
export async function deleteSubscribersOfPerson(em: EntityManager, person: PersonToErase): Promise<ErasedRecords> {
  if (person.email === null) return { count: 0, recordIds: [] };
  return erasedRowsOf(
    await em.query('DELETE FROM changelog_subscribers WHERE project_id = $1 AND email = $2 RETURNING id', [person.projectId, person.email]),
  );
}

/** Query-builder condition on subscribers `s`: the subscriber follows the label `:labelId`. */
export const SUBSCRIBER_FOLLOWS_LABEL =
  'EXISTS (SELECT 1 FROM changelog_subscriber_labels sl WHERE sl.subscriber_id = s.id AND sl.label_id = :labelId)';
