import type { EntityManager } from 'typeorm';
import type { EmailTokenRow } from './email-tokens';
import type { WaitlistSignupEntity } from './entities/waitlist-signup.entity';

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

/** Stores link tokens of any signups in one statement (raw SQL, like the credit above: it runs on every signup). */
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
