import type { EntityManager } from 'typeorm';
import type { StatementRunner } from '../infra/database/database.service';
import { type ErasedRecords, erasedRowsOf } from '../infra/erasure/erasure-registry.service';
import type { PersonToErase } from '../infra/erasure/person-match';
import type { AttributionSignupRow } from './dto/attribution-signup';
import type { EmailTokenRow } from './email-tokens';
import type { WaitlistSignupEntity } from './entities/waitlist-signup.entity';
import type { SignupDraft } from './signup-row';

/*
 * The waitlist's SQL helpers, each taking the caller's `em`. The entity decorators name their
 * indexes with the constants below, so this file imports entities as types only: a value import
 * would make a load-order cycle in which an index name could be read before it is defined.
 */

/** Unique indexes of waitlist_signups; the services map their violations to errors or retries. */
export const UQ_SIGNUP_EMAIL = 'uq_waitlist_signups_project_email';
export const UQ_SIGNUP_POSITION = 'uq_waitlist_signups_project_position';
export const UQ_SIGNUP_REFERRAL_CODE = 'uq_waitlist_signups_project_referral_code';

/**
 * Reserves `count` positions for the project and returns the first. Raw SQL because TypeORM's
 * upsert cannot increment: the first call creates the counter row, later ones add to it. The row
 * lock taken here is held until the transaction ends, so the project's inserts run one after
 * another from this point, and a rollback gives the positions back: gap-free numbering.
 */
export async function takePositions(em: EntityManager, projectId: string, count: number): Promise<number> {
  const rows: { last_position: number }[] = await em.query(
    `INSERT INTO waitlist_counters (project_id, last_position) VALUES ($1, $2)
     ON CONFLICT (project_id) DO UPDATE SET last_position = waitlist_counters.last_position + EXCLUDED.last_position
     RETURNING last_position`,
    [projectId, count],
  );
  return rows[0].last_position - count + 1;
}

/**
 * Credits the owner of `code` in this project with one referral and answers their signup id, or
 * null when no signup of this project has that code. One statement: the row lock makes concurrent
 * credits add up exactly, and a rollback of the new signup takes the credit back. Raw SQL: it runs
 * on every referred signup, where TypeORM's update builder costs more than the statement.
 */
export async function creditReferrer(em: EntityManager, projectId: string, code: string): Promise<string | null> {
  // The UPDATE inside a SELECT: TypeORM answers a bare UPDATE with [rows, count], a SELECT with rows.
  const rows: { id: string }[] = await em.query(
    `WITH credited AS (
       UPDATE waitlist_signups SET referral_count = referral_count + 1 WHERE project_id = $1 AND referral_code = $2 RETURNING id
     )
     SELECT id FROM credited`,
    [projectId, code],
  );
  return rows.length > 0 ? rows[0].id : null;
}

/**
 * Takes the project's next position and inserts the signup at it, with its email tokens, in one
 * statement, and answers the position. This is where a signup locks the counter row, which it then
 * holds until commit; doing the increment, the row and the tokens in one round trip keeps that
 * span short (raw SQL: TypeORM cannot chain inserts through a CTE). The unique indexes decide: a
 * known email fails here (23505 on UQ_SIGNUP_EMAIL) and the rollback gives the position back.
 */
export async function insertAtNextPosition(em: EntityManager, draft: SignupDraft, tokens: readonly EmailTokenRow[]): Promise<number> {
  const rows: { position: number }[] = await em.query(
    `WITH counter AS (
       INSERT INTO waitlist_counters (project_id, last_position) VALUES ($2, 1)
       ON CONFLICT (project_id) DO UPDATE SET last_position = waitlist_counters.last_position + 1
       RETURNING last_position
     ), signup AS (
       INSERT INTO waitlist_signups (id, project_id, email, position, referral_code, referred_by_signup_id, referral_count,
         status, channel, confirmed_at, invited_at, unsubscribed_at, last_confirmation_sent_at, metadata, source, created_at)
       SELECT $1, $2, $3, counter.last_position, $4, $5, $6::int, $7, $8, $9::timestamptz, $10::timestamptz, $11::timestamptz,
         $12::timestamptz, $13::jsonb, $14::jsonb, $15::timestamptz
       FROM counter
       RETURNING id, position
     ), tokens AS (
       INSERT INTO waitlist_email_tokens (token_hash, project_id, signup_id, purpose, created_at)
       SELECT token.hash, $2, signup.id, token.purpose, token.created_at
       FROM signup, unnest($16::varchar[], $17::varchar[], $18::timestamptz[]) AS token(hash, purpose, created_at)
     )
     SELECT position FROM signup`,
    insertAtNextPositionParameters(draft, tokens),
  );
  return rows[0].position;
}

/** $1…$18 of insertAtNextPosition, in the order of its columns. */
function insertAtNextPositionParameters(draft: SignupDraft, tokens: readonly EmailTokenRow[]): unknown[] {
  return [
    draft.id,
    draft.projectId,
    draft.email,
    draft.referralCode,
    draft.referredBySignupId,
    draft.referralCount,
    draft.status,
    draft.channel,
    draft.confirmedAt,
    draft.invitedAt,
    draft.unsubscribedAt,
    draft.lastConfirmationSentAt,
    JSON.stringify(draft.metadata),
    JSON.stringify(draft.source),
    draft.createdAt,
    tokens.map((token) => token.tokenHash),
    tokens.map((token) => token.purpose),
    tokens.map((token) => token.createdAt),
  ];
}

/** Stores link tokens of any signups in one statement (raw SQL for the same cost reason as above). */
export async function insertEmailTokens(em: EntityManager, tokens: readonly EmailTokenRow[]): Promise<void> {
  if (tokens.length === 0) return;
  await em.query(
    `INSERT INTO waitlist_email_tokens (token_hash, project_id, signup_id, purpose, created_at)
     SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::varchar[], $5::timestamptz[])`,
    [
      tokens.map((token) => token.tokenHash),
      tokens.map((token) => token.projectId),
      tokens.map((token) => token.signupId),
      tokens.map((token) => token.purpose),
      tokens.map((token) => token.createdAt),
    ],
  );
}

export type TopReferrerRow = Pick<WaitlistSignupEntity, 'id' | 'email' | 'referralCount'>;

export interface WaitlistTotals {
  total: number;
  confirmed: number;
  invited: number;
  referred: number;
  topReferrers: TopReferrerRow[];
}

/**
 * The figures of the stats in one statement: the counts and the top referrers (json_agg of the
 * first `topSize` by referral count, earliest position on ties). Raw SQL because a query builder
 * cannot nest the ordered aggregate, and two round trips cost more than the statement.
 */
export async function waitlistTotals(em: StatementRunner, projectId: string, topSize: number): Promise<WaitlistTotals> {
  const [row]: {
    total: number;
    confirmed: number;
    invited: number;
    referred: number;
    top: { id: string; email: string; referral_count: number }[];
  }[] = await em.query(
    `SELECT COUNT(*)::int AS total, COUNT(confirmed_at)::int AS confirmed, COUNT(invited_at)::int AS invited,
       COUNT(referred_by_signup_id)::int AS referred,
       (SELECT COALESCE(json_agg(top ORDER BY top.referral_count DESC, top.position ASC), '[]'::json)
        FROM (SELECT id, email, referral_count, position FROM waitlist_signups
              WHERE project_id = $1 AND referral_count > 0
              ORDER BY referral_count DESC, position ASC LIMIT $2) top) AS top
     FROM waitlist_signups WHERE project_id = $1`,
    [projectId, topSize],
  );
  return {
    total: row.total,
    confirmed: row.confirmed,
    invited: row.invited,
    referred: row.referred,
    topReferrers: row.top.map((top) => ({ id: top.id, email: top.email, referralCount: top.referral_count })),
  };
}

/** Signups created in [from, to), oldest first. */
export async function listSignupsForAttribution(
  em: EntityManager,
  projectId: string,
  from: Date,
  to: Date,
): Promise<AttributionSignupRow[]> {
  return em.query(
    `SELECT email, confirmed_at IS NOT NULL AS confirmed, channel, source, referred_by_signup_id IS NOT NULL AS referred
       FROM waitlist_signups WHERE project_id = $1 AND created_at >= $2 AND created_at < $3 ORDER BY created_at, id`,
    [projectId, from, to],
  );
}

/**
 * Erasure (infra/erasure): the person's signups, by email. Their email tokens go with them (ON
 * DELETE CASCADE); people they referred keep their places. Answers the signups' ids.
 */
export async function deleteSignupsOfPerson(em: EntityManager, person: PersonToErase): Promise<ErasedRecords> {
  if (person.email === null) return { count: 0, recordIds: [] };
  return erasedRowsOf(
    await em.query('DELETE FROM waitlist_signups WHERE project_id = $1 AND email = $2 RETURNING id', [person.projectId, person.email]),
  );
}
