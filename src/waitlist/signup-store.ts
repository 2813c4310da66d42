import { EntityManager } from 'typeorm';
import { newId } from '../common/ids/ids';
import { SignupDto } from './dto/signup.dto';
import { SignupChannel, SignupSource, WaitlistSignupEntity } from './entities/waitlist-signup.entity';
import { generateReferralCode } from './referral';

/** Index names the services map to errors or retries. */
export const UQ_SIGNUP_EMAIL = 'uq_waitlist_signups_project_email';
export const UQ_SIGNUP_REFERRAL_CODE = 'uq_waitlist_signups_project_referral_code';

/**
 * Reserves `count` positions for the project and returns the first (with `count` 0: locks the
 * counter and returns the next free position). Raw SQL because TypeORM's upsert cannot increment:
 * the first call creates the counter row, later ones add to it. The row lock taken here is held
 * until the transaction ends, so the project's inserts run one after another from this point, and a
 * rollback gives the positions back: gap-free numbering under any concurrency.
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
 * credits add up exactly, and a rollback of the new signup takes the credit back.
 */
export async function creditReferrer(em: EntityManager, projectId: string, code: string): Promise<string | null> {
  const result = await em
    .createQueryBuilder()
    .update(WaitlistSignupEntity)
    .set({ referralCount: () => 'referral_count + 1' })
    .where('project_id = :projectId AND referral_code = :code', { projectId, code })
    .returning(['id'])
    .execute();
  const rows = result.raw as { id: string }[];
  return rows.length > 0 ? rows[0].id : null;
}

export interface NewSignup {
  email: string;
  metadata: Record<string, string | number | boolean>;
  source: SignupSource;
  channel: SignupChannel;
}

/** A signup that joined through the API: waiting, unconfirmed, its confirmation email sent now. */
export function newSignupRow(
  projectId: string,
  input: NewSignup,
  position: number,
  referrerId: string | null,
  now: Date,
): WaitlistSignupEntity {
  return Object.assign(new WaitlistSignupEntity(), {
    id: newId('ws'),
    projectId,
    email: input.email,
    position,
    referralCode: generateReferralCode(),
    referredBySignupId: referrerId,
    referralCount: 0,
    status: 'waiting',
    channel: input.channel,
    confirmedAt: null,
    invitedAt: null,
    unsubscribedAt: null,
    lastConfirmationSentAt: now,
    metadata: input.metadata,
    source: input.source,
    createdAt: now,
  } satisfies WaitlistSignupEntity);
}

/** The data of `waitlist.signup.created` (spec: Events): `source` is how the person joined. */
export function signupCreatedData(signup: WaitlistSignupEntity): Record<string, unknown> {
  return {
    signup_id: signup.id,
    email: signup.email,
    position: signup.position,
    referral_code: signup.referralCode,
    referred: signup.referredBySignupId !== null,
    source: signup.channel,
    utm_source: signup.source.utm_source ?? null,
    utm_medium: signup.source.utm_medium ?? null,
    utm_campaign: signup.source.utm_campaign ?? null,
    referrer: signup.source.referrer ?? null,
    landing_path: signup.source.landing_path ?? null,
    metadata: signup.metadata,
    created_at: signup.createdAt.toISOString(),
  };
}

export function toSignupDto(row: WaitlistSignupEntity): SignupDto {
  return {
    signup_id: row.id,
    email: row.email,
    position: row.position,
    status: row.status,
    confirmed: row.confirmedAt !== null,
    confirmed_at: row.confirmedAt?.toISOString() ?? null,
    invited_at: row.invitedAt?.toISOString() ?? null,
    unsubscribed_at: row.unsubscribedAt?.toISOString() ?? null,
    referral_code: row.referralCode,
    referral_count: row.referralCount,
    referred_by: row.referredBySignupId,
    source: {
      referrer: row.source.referrer ?? null,
      utm_source: row.source.utm_source ?? null,
      utm_medium: row.source.utm_medium ?? null,
      utm_campaign: row.source.utm_campaign ?? null,
      landing_path: row.source.landing_path ?? null,
    },
    metadata: row.metadata,
    created_at: row.createdAt.toISOString(),
  };
}
