import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { ApiError } from '../common/errors/api-error';
import { LINE_ORDER, listPage } from '../common/http/list-page';
import { Paged } from '../common/http/reply';
import type { CallerKind } from '../auth/caller';
import { normalizeEmail } from '../common/validation/email-field';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { ContactsService } from '../contacts/contacts.service';
import { OutboxService } from '../events/outbox.service';
import { idempotently } from '../idempotency/idempotent-call';
import { Database } from '../infra/database/database.service';
import { isUniqueViolation } from '../infra/database/postgres-errors';
import type { ProjectRef } from '../projects/project-ref';
import { CreateSignupDto } from './dto/create-signup.dto';
import { ListSignupsQueryDto } from './dto/list-signups-query.dto';
import { ResendConfirmationResultDto } from './dto/resend-confirmation.dto';
import { SignupResultDto, toSignupResultDto } from './dto/signup-result.dto';
import { SignupDto, toSignupDto } from './dto/signup.dto';
import { issueConfirmationTokens } from './email-tokens';
import { SignupChannel, WaitlistSignupEntity } from './entities/waitlist-signup.entity';
import { normalizeReferralCode, referralLink } from './referral';
import { resendWaitMs } from './resend-interval';
import { signupCreatedData } from './signup-event';
import { compactSource, placeSignup, signupDraft } from './signup-row';
import { TurnstileVerifier } from './turnstile.client';
import { WaitlistMailer } from './waitlist-mailer.service';
import {
  UQ_SIGNUP_EMAIL,
  UQ_SIGNUP_REFERRAL_CODE,
  creditReferrer,
  insertAtNextPosition,
  insertEmailTokens,
  listSignupsForAttribution,
  deleteSignupsOfPerson,
} from './waitlist.queries';
import type { AttributionSignupRow } from './dto/attribution-signup';
import { ErasureRegistry } from '../infra/erasure/erasure-registry.service';

/*
 * Waitlist: signups, referrals, double opt-in, invites, stats, CSV import and export.
 *
 * Choices where the spec is silent:
 * - Positions are 1-based, gap-free per project and fixed at signup (the place in line, not "people
 *   ahead of you now"). A per-project counter row is incremented in the signup transaction; its
 *   row lock serializes the project's inserts and a rollback gives the number back.
 * - The counter is taken as late as possible and held as briefly as possible, since it serializes
 *   a project's signups: first everything that does not need the position (the referrer's credit,
 *   the contact), then one statement that increments the counter and inserts the signup and its
 *   link tokens, then only what needs the position (the event, the confirmation email) and COMMIT.
 * - Lock order, to rule out deadlocks: existing signup rows (a referrer, invitees, the signup
 *   behind a link) → contacts (several in email order) → the project counter, always last. A
 *   signup takes referrer row → its contact → counter; a CSV import batch takes its contacts, then
 *   the counter; invites, confirm and unsubscribe take signup rows, then contacts, and never the
 *   counter. Whoever holds the counter waits for no other row lock (only the counter holder
 *   inserts into the list, so no unique-index wait either).
 * - A duplicate email (case-insensitive) answers 409 DUPLICATE_SIGNUP (param `email`) and writes
 *   nothing (the unique index fails the insert and the whole transaction, credit and contact
 *   included, rolls back); so `already_registered` is always false in a 201 answer.
 * - `referrer_code` is matched case-insensitively within the project. A code of another project or
 *   an unknown code is ignored (`referrer_credited` false), not an error: links get mistyped.
 * - `referral_link` is `{base_url}/w/{project_slug}?ref={code}`.
 * - `project_plan` reports plans above the spec's enum (scale) as `builder`.
 * - The event's `source` says how the person joined: `api` (secret key) or `widget` (a browser:
 *   publishable key, or the hosted page `/w/{slug}`). `utm_*`, `referrer` and `landing_path` come
 *   from the input's `source` object (null when absent); CSV imports emit no event.
 * - Emails are trimmed and lower-cased by the DTOs (`@EmailField`) before the 254 limit is checked.
 * - Double opt-in: every signup gets a confirmation email at once (`confirmation_email_sent` true).
 *   Its link `GET {base_url}/v1/waitlist/confirm?token=…` shows a page whose button POSTs to the
 *   same address; only the POST confirms (mail scanners open links). Tokens are 32 random bytes,
 *   stored as SHA-256 hashes, one purpose each; every email has its own tokens and older links
 *   keep working. Every waitlist email carries an unsubscribe link
 *   (`/v1/waitlist/unsubscribe?token=…`: GET shows the page, POST acts), which moves the signup to
 *   `unsubscribed` and withdraws the contact's `waitlist_emails` consent.
 * - With TURNSTILE_SECRET set, every signup (publishable or secret key) needs a valid token; the
 *   visitor's IP goes to the verifier only for browser calls (publishable key, hosted page).
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
 * - Lists run in line order (position ascending); the cursor is the last position of the page.
 *   Stats (StatsService) count every signup; `invited_count` is everyone ever invited;
 *   `referral_conversion_rate` = via_referral_count / total_signups (4 decimals, 0 when empty);
 *   `top_referrers` is the top 10 with at least one referral. The leaderboard (top 50) leaves out
 *   people without referrals and people who unsubscribed.
 * - CSV import/export (WaitlistCsvService, `waitlist:import` / `waitlist:export`): no events and no
 *   emails on import; export cells are guarded against formula injection and import removes the guard.
 */
interface SignupCaller {
  kind: CallerKind;
  ip: string | null;
}

// A fresh code collides with one of N existing codes with chance N / 32^8 (N / 1.1e12); a new code fixes it.
const REFERRAL_CODE_ATTEMPTS = 3;

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
    erasure: ErasureRegistry,
  ) {
    erasure.contributeRecords('waitlist_signups', deleteSignupsOfPerson);
  }

  async createSignup(project: ProjectRef, input: CreateSignupDto, caller: SignupCaller): Promise<SignupResultDto> {
    // A browser: a publishable key, or the hosted signup page (no key).
    const channel: SignupChannel = caller.kind === 'secret_key' ? 'api' : 'widget';
    // Before the transaction: a refused or unreachable bot check writes nothing. A server holding the
    // secret key has no widget to solve, so none is asked of it; a token it forwards from its own
    // visitor is still checked.
    if (channel === 'widget') await this.turnstile.verify(input.turnstile_token, caller.ip);
    else if (input.turnstile_token) await this.turnstile.verify(input.turnstile_token, null);
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.db.transaction((em) => idempotently(em, input, () => this.insertSignup(em, project, input, channel)));
      } catch (error) {
        if (isUniqueViolation(error, UQ_SIGNUP_EMAIL)) {
          throw new ApiError('DUPLICATE_SIGNUP', 'This email is already on the waitlist.', { param: 'email' });
        }
        if (isUniqueViolation(error, UQ_SIGNUP_REFERRAL_CODE) && attempt < REFERRAL_CODE_ATTEMPTS) continue;
        throw error;
      }
    }
  }

  /** Signups created in [from, to) with their confirmation and source, for attribution analytics. */
  signupsForAttribution(projectId: string, from: Date, to: Date): Promise<AttributionSignupRow[]> {
    return listSignupsForAttribution(this.db.manager, projectId, from, to);
  }

  async listSignups(project: ProjectRef, query: ListSignupsQueryDto): Promise<Paged<SignupDto>> {
    const qb = this.db.manager.createQueryBuilder(WaitlistSignupEntity, 's').where('s.project_id = :projectId', { projectId: project.id });
    // A filter, not an address to store: any text is accepted, and matches case-insensitively.
    if (query.email) qb.andWhere('s.email = :email', { email: normalizeEmail(query.email) });
    if (query.status) qb.andWhere('s.status = :status', { status: query.status });
    return listPage(qb, query, LINE_ORDER, toSignupDto);
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
      const waitMs = resendWaitMs(signup.lastConfirmationSentAt, now);
      if (waitMs > 0) {
        throw new ApiError('RATE_LIMITED', 'A confirmation email was sent to this address in the last 5 minutes.', {
          headers: { 'Retry-After': String(Math.ceil(waitMs / 1000)) },
        });
      }
      await em.update(WaitlistSignupEntity, { id: signup.id }, { lastConfirmationSentAt: now });
      const tokens = issueConfirmationTokens(signup, now);
      await insertEmailTokens(em, tokens.rows);
      await this.mailer.queueConfirmation(em, project, signup, tokens);
      return { email, status: 'sent' };
    });
  }

  /** One signup, in the lock order of the module comment: referrer row, contact, then the counter. */
  private async insertSignup(
    em: EntityManager,
    project: ProjectRef,
    input: CreateSignupDto,
    channel: SignupChannel,
  ): Promise<SignupResultDto> {
    const now = this.clock.now();
    const metadata = input.metadata ?? {};
    // Before any lock: the counter row below is held from its statement to commit.
    const template = await this.mailer.confirmationTemplate(em, project.id);
    const referrerId = input.referrer_code ? await creditReferrer(em, project.id, normalizeReferralCode(input.referrer_code)) : null;
    await this.contacts.upsertContact(em, project.id, {
      email: input.email,
      stage: 'waitlist',
      details: metadata,
      consents: { waitlist_emails: 'granted' },
    });
    const draft = signupDraft(
      project.id,
      { email: input.email, channel, metadata, source: compactSource(input.source), referredBySignupId: referrerId },
      now,
    );
    const tokens = issueConfirmationTokens(draft, now);
    // The counter row is locked from here to commit: this statement, the event, the email.
    const signup = placeSignup(draft, await insertAtNextPosition(em, draft, tokens.rows));
    await this.outbox.record(em, project, 'waitlist.signup.created', signupCreatedData(signup));
    await this.mailer.queueConfirmation(em, project, signup, tokens, template);
    return toSignupResultDto(signup, referralLink(this.config.publicBaseUrl, project.slug, signup.referralCode), project.plan);
  }
}
