import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { ApiError } from '../common/errors/api-error';
import type { CredentialKind } from '../common/http/request-context';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { ContactsService } from '../contacts/contacts.service';
import { OutboxService } from '../events/outbox.service';
import { Database } from '../infra/database/database';
import { isUniqueViolation } from '../infra/database/postgres-errors';
import type { ProjectRef } from '../projects/project-ref';
import { CreateSignupDto, SignupSourceDto } from './dto/create-signup.dto';
import { ResendConfirmationResultDto } from './dto/resend-confirmation.dto';
import { SignupResultDto } from './dto/signup-result.dto';
import { SignupChannel, SignupSource, WaitlistSignupEntity } from './entities/waitlist-signup.entity';
import { normalizeReferralCode, referralLink, signupResultPlan } from './referral';
import { UQ_SIGNUP_EMAIL, UQ_SIGNUP_REFERRAL_CODE, creditReferrer, newSignupRow, signupCreatedData, takePositions } from './signup-store';
import { TurnstileVerifier } from './turnstile.verifier';
import { WaitlistMailer } from './waitlist-mailer';

/*
 * Waitlist: signups, referrals, double opt-in, invites, stats, CSV import and export.
 *
 * Choices where the spec is silent:
 * - Positions are 1-based, gap-free per project and fixed at signup (the place in line, not "people
 *   ahead of you now"). A per-project counter row is incremented in the signup transaction; its
 *   row lock serializes the project's inserts and a rollback gives the number back.
 * - Lock order, to rule out deadlocks: referrer signup row → project counter → contact. Invites,
 *   confirm and unsubscribe take signup rows, then contacts, and never the counter.
 * - Emails are trimmed and lower-cased by the DTOs (`@EmailField`) before the 254 limit is checked.
 * - A duplicate email (case-insensitive) answers 409 DUPLICATE_SIGNUP (param `email`) and writes
 *   nothing; so `already_registered` is always false in a 201 answer.
 * - `referrer_code` is matched case-insensitively within the project. A code of another project or
 *   an unknown code is ignored (`referrer_credited` false), not an error: links get mistyped.
 * - `referral_link` is `{base_url}/w/{project_slug}?ref={code}`.
 * - `project_plan` reports plans above the spec's enum (scale) as `builder`.
 * - The event's `source` says how the person joined: `api` (secret key) or `widget` (publishable
 *   key, a browser form). `utm_*`, `referrer` and `landing_path` come from the input's `source`
 *   object (null when absent); CSV imports emit no event.
 * - Double opt-in: every signup gets a confirmation email at once (`confirmation_email_sent` true).
 *   Its link `GET {base_url}/v1/waitlist/confirm?token=…` answers a small HTML page. Tokens are 32
 *   random bytes, stored as SHA-256 hashes, one purpose each; every email has its own tokens and
 *   older links keep working. Every waitlist email carries an unsubscribe link
 *   (`GET /v1/waitlist/unsubscribe?token=…`), which moves the signup to `unsubscribed` and
 *   withdraws the contact's `waitlist_emails` consent.
 * - With TURNSTILE_SECRET set, every signup (publishable or secret key) needs a valid token; the
 *   visitor's IP goes to the verifier only for browser (publishable-key) calls.
 * - Resend: at most one confirmation email per 5 minutes per signup, counting the signup's own
 *   email; the answer is `{email, status: sent | already_confirmed | unsubscribed}`.
 * - Each signup creates or updates the contact (stage `waitlist`, details from metadata, consent
 *   `waitlist_emails` granted); invites move it to `invited`.
 * - A referrer is credited whatever their status (also when invited or unsubscribed). Positions
 *   never move: referrals raise `referral_count` (leaderboard), not the place in line.
 * - Invites (InvitesService): by `count`, the next N `waiting` people by position, confirmed or
 *   not; by `specific_email`, that person if waiting, else invited_count 0 (404 when unknown); both
 *   or neither is VALIDATION_ERROR. Unsubscribed people are never invited. Empty waves record no
 *   event. Invites accept Idempotency-Key (a retried wave is not sent twice) and are limited to 20
 *   waves a minute per project (the spec lists 429 without a number).
 * - Lists run in line order (position ascending). Stats count every signup; `invited_count` is
 *   everyone ever invited; `referral_conversion_rate` = via_referral_count / total_signups
 *   (4 decimals, 0 when empty); `top_referrers` is the top 10 with at least one referral. The
 *   leaderboard (top 50) leaves out people without referrals and people who unsubscribed.
 * - CSV import/export (WaitlistCsvService, `waitlist:import` / `waitlist:export`): no events and no
 *   emails on import; export cells are guarded against formula injection and import removes the guard.
 */
export interface SignupCaller {
  kind: CredentialKind;
  ip: string | null;
}

export interface SignupDraft {
  email: string;
  referrerCode: string | null;
  metadata: Record<string, string | number | boolean>;
  source: SignupSource;
  channel: SignupChannel;
}

// A fresh code collides with one of N existing codes with chance N / 32^8 (N / 1.1e12); a new code fixes it.
const REFERRAL_CODE_ATTEMPTS = 3;
export const RESEND_INTERVAL_MS = 5 * 60_000;

const SOURCE_KEYS = ['referrer', 'utm_source', 'utm_medium', 'utm_campaign', 'landing_path'] as const;

export function compactSource(source: SignupSourceDto | undefined): SignupSource {
  const compact: SignupSource = {};
  for (const key of SOURCE_KEYS) if (typeof source?.[key] === 'string') compact[key] = source[key];
  return compact;
}

@Injectable()
export class SignupsService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly outbox: OutboxService,
    private readonly contacts: ContactsService,
    private readonly mailer: WaitlistMailer,
    private readonly turnstile: TurnstileVerifier,
  ) {}

  async createSignup(project: ProjectRef, input: CreateSignupDto, caller: SignupCaller): Promise<SignupResultDto> {
    const channel: SignupChannel = caller.kind === 'publishable_key' ? 'widget' : 'api';
    // Before the transaction: a refused or unreachable bot check writes nothing.
    await this.turnstile.verify(input.turnstile_token, channel === 'widget' ? caller.ip : null);
    const draft: SignupDraft = {
      email: input.email,
      referrerCode: input.referrer_code ? normalizeReferralCode(input.referrer_code) : null,
      metadata: input.metadata ?? {},
      source: compactSource(input.source),
      channel,
    };
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.db.transaction((em) => this.insertSignup(em, project, draft));
      } catch (error) {
        if (isUniqueViolation(error, UQ_SIGNUP_EMAIL)) {
          throw new ApiError('DUPLICATE_SIGNUP', 'This email is already on the waitlist.', { param: 'email' });
        }
        if (isUniqueViolation(error, UQ_SIGNUP_REFERRAL_CODE) && attempt < REFERRAL_CODE_ATTEMPTS) continue;
        throw error;
      }
    }
  }

  async resendConfirmation(project: ProjectRef, email: string): Promise<ResendConfirmationResultDto> {
    return this.db.transaction(async (em) => {
      // The row lock makes two concurrent resends for one person send one email.
      const signup = await em.findOne(WaitlistSignupEntity, {
        where: { projectId: project.id, email },
        lock: { mode: 'pessimistic_write' },
      });
      if (!signup) throw new ApiError('NOT_FOUND', 'No signup with this email on the waitlist.', { param: 'email' });
      if (signup.confirmedAt) return { email, status: 'already_confirmed' };
      if (signup.status === 'unsubscribed') return { email, status: 'unsubscribed' };
      const now = this.clock.now();
      this.enforceResendInterval(signup, now);
      signup.lastConfirmationSentAt = now;
      await em.update(WaitlistSignupEntity, { id: signup.id }, { lastConfirmationSentAt: now });
      await this.mailer.queueConfirmation(em, project, signup, now);
      return { email, status: 'sent' };
    });
  }

  private enforceResendInterval(signup: WaitlistSignupEntity, now: Date): void {
    const last = signup.lastConfirmationSentAt?.getTime();
    if (last === undefined) return;
    const waitMs = last + RESEND_INTERVAL_MS - now.getTime();
    if (waitMs <= 0) return;
    throw new ApiError('RATE_LIMITED', 'A confirmation email was sent to this address in the last 5 minutes.', {
      headers: { 'Retry-After': String(Math.ceil(waitMs / 1000)) },
    });
  }

  /** One signup, in lock order: referrer row, project counter, then the contact (see the module comment). */
  private async insertSignup(em: EntityManager, project: ProjectRef, draft: SignupDraft): Promise<SignupResultDto> {
    const now = this.clock.now();
    const referrerId = draft.referrerCode ? await creditReferrer(em, project.id, draft.referrerCode) : null;
    const position = await takePositions(em, project.id, 1);
    const signup = newSignupRow(project.id, draft, position, referrerId, now);
    // The unique indexes decide: a known email fails here (23505) and the transaction rolls back.
    await em.insert(WaitlistSignupEntity, signup);
    await this.outbox.record(em, project.id, 'waitlist.signup.created', signupCreatedData(signup));
    await this.mailer.queueConfirmation(em, project, signup, now);
    await this.contacts.upsertContact(em, project.id, {
      email: draft.email,
      stage: 'waitlist',
      details: draft.metadata,
      consents: { waitlist_emails: 'granted' },
    });
    return {
      signup_id: signup.id,
      position,
      referral_code: signup.referralCode,
      referral_link: referralLink(this.config.publicBaseUrl, project.slug, signup.referralCode),
      referrer_credited: referrerId !== null,
      confirmation_email_sent: true,
      already_registered: false,
      project_plan: signupResultPlan(project.plan),
    };
  }
}
