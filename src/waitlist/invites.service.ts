import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { ApiError } from '../common/errors/api-error';
import { ContactsService } from '../contacts/contacts.service';
import { OutboxService } from '../events/outbox.service';
import { idempotently } from '../idempotency/idempotent-call';
import { Database } from '../infra/database/database.service';
import { RateLimiter } from '../infra/rate-limit/rate-limiter.service';
import { PLATFORM_LIMITS } from '../projects/plans';
import type { ProjectRef } from '../projects/project-ref';
import { CreateInvitesDto } from './dto/create-invites.dto';
import { InviteResultDto, toInviteResultDto } from './dto/invite-result.dto';
import { WaitlistSignupEntity } from './entities/waitlist-signup.entity';
import { InviteTarget, inviteTarget } from './invite-target';
import { WaitlistMailer } from './waitlist-mailer.service';

// Ours (the spec lists 429 for invites without a number): at most 20 waves a minute per project,
// which caps the invite emails one key can queue at 10 000 a minute.
const INVITE_WAVES_RULE = { bucket: 'waitlist-invites', limit: PLATFORM_LIMITS.waitlistInviteWavesPerMinute, windowMs: 60_000 };

const INVITE_PREVIEW_SIZE = 20;

/** What an invite wave would do (InvitesService.previewInvites). */
interface InvitePreview {
  invite_count: number;
  /** At most the first 20 people, in line order. */
  first: { email: string; position: number }[];
  skipped_because: string | null;
}

const previewOf = (signup: WaitlistSignupEntity) => ({ email: signup.email, position: signup.position });

/**
 * Invite waves. A wave by `count` takes the next N `waiting` signups in line order with
 * `FOR UPDATE SKIP LOCKED`, so concurrent waves take disjoint people. A wave by `specific_email`
 * invites that person when they are waiting; someone already invited or unsubscribed is not
 * invited again (invited_count 0). Unsubscribed people are never invited. Each wave with at least
 * one person queues one invite email per person and records one `waitlist.signups.invited` event;
 * an empty wave records nothing. Invitees' contacts move to stage `invited`.
 */
@Injectable()
export class InvitesService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly outbox: OutboxService,
    private readonly contacts: ContactsService,
    private readonly mailer: WaitlistMailer,
    private readonly limiter: RateLimiter,
  ) {}

  async inviteSignups(project: ProjectRef, input: CreateInvitesDto): Promise<InviteResultDto> {
    const target = inviteTarget(input);
    await this.limiter.enforce(
      INVITE_WAVES_RULE,
      project.id,
      `At most ${PLATFORM_LIMITS.waitlistInviteWavesPerMinute} invite waves a minute per project.`,
    );
    return this.db.transaction((em) => idempotently(em, input, () => this.inviteWave(em, project, target)));
  }

  /**
   * Who a wave would invite now, without locking or changing anything: how many, and the first 20
   * in line order (a concurrent wave may take some of them first).
   */
  async previewInvites(project: ProjectRef, input: CreateInvitesDto): Promise<InvitePreview> {
    const target = inviteTarget(input);
    const em = this.db.manager;
    if ('email' in target) {
      const signup = await em.findOne(WaitlistSignupEntity, { where: { projectId: project.id, email: target.email } });
      if (!signup) throw new ApiError('NOT_FOUND', 'No signup with this email on the waitlist.', { param: 'specific_email' });
      const people = signup.status === 'waiting' ? [signup] : [];
      return {
        invite_count: people.length,
        first: people.map(previewOf),
        skipped_because: people.length ? null : `status is ${signup.status}`,
      };
    }
    const waiting = em
      .createQueryBuilder(WaitlistSignupEntity, 's')
      .where('s.project_id = :projectId', { projectId: project.id })
      .andWhere("s.status = 'waiting'");
    const total = await waiting.getCount();
    const first = await waiting.orderBy('s.position', 'ASC').limit(Math.min(target.count, INVITE_PREVIEW_SIZE)).getMany();
    return { invite_count: Math.min(target.count, total), first: first.map(previewOf), skipped_because: null };
  }

  /** One wave in one transaction; the lock order is signup rows, then contacts. */
  private async inviteWave(em: EntityManager, project: ProjectRef, target: InviteTarget): Promise<InviteResultDto> {
    const signups =
      'count' in target ? await this.lockNextWaiting(em, project, target.count) : await this.lockOne(em, project, target.email);
    if (signups.length === 0) return { invited_count: 0, invited: [] };
    const now = this.clock.now();
    await em
      .createQueryBuilder()
      .update(WaitlistSignupEntity)
      .set({ status: 'invited', invitedAt: now })
      .whereInIds(signups.map((signup) => signup.id))
      .execute();
    await this.mailer.queueInvites(em, project, signups, now);
    const result = toInviteResultDto(signups);
    await this.outbox.record(em, project, 'waitlist.signups.invited', {
      count: result.invited_count,
      invited: result.invited,
      invited_at: now.toISOString(),
    });
    // Contacts last (the lock order is signup rows, then contacts), all in one statement.
    await this.contacts.upsertContactsByEmail(
      em,
      project.id,
      signups.map((signup) => ({ email: signup.email, stage: 'invited' as const })),
    );
    return result;
  }

  private lockNextWaiting(em: EntityManager, project: ProjectRef, count: number): Promise<WaitlistSignupEntity[]> {
    return em
      .createQueryBuilder(WaitlistSignupEntity, 's')
      .setLock('pessimistic_write')
      .setOnLocked('skip_locked')
      .where('s.project_id = :projectId', { projectId: project.id })
      .andWhere("s.status = 'waiting'")
      .orderBy('s.position', 'ASC')
      .limit(count)
      .getMany();
  }

  private async lockOne(em: EntityManager, project: ProjectRef, email: string): Promise<WaitlistSignupEntity[]> {
    const signup = await em.findOne(WaitlistSignupEntity, { where: { projectId: project.id, email }, lock: { mode: 'pessimistic_write' } });
    if (!signup) throw new ApiError('NOT_FOUND', 'No signup with this email on the waitlist.', { param: 'specific_email' });
    return signup.status === 'waiting' ? [signup] : [];
  }
}
