import { countBellUsers } from '../bell/bell.queries';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { ApiError } from '../../common/errors/api-error';
import { WithMeta } from '../../common/http/reply';
import { newId } from '../../common/ids/ids';
import { idempotently } from '../../idempotency/idempotent-call';
import { Database } from '../../infra/database/database.service';
import { NotificationReactionSets } from '../reaction-sets.service';
import type { ProjectRef } from '../../projects/project-ref';
import { NotificationEntity } from '../entities/notification.entity';
import { AudienceResolver, type ResolvedAudience } from './audience-resolver.service';
import type { AudienceInputDto, CreateNotificationDto } from './dto/create-notification.dto';
import { type AudiencePreviewDto, type SentNotificationDto, toSentNotificationDto } from './dto/sent-notification.dto';
import { GROUP_FIELDS, NOTIFICATION_LIMITS, type SendTarget, reactionsOf, targetOf, usageMonthOf, visibleAtOf } from './notification-input';
import { NotificationQuota } from './notification-quota.service';
import { NotificationReleases } from './notification-releases.service';
import { BellStateCache } from '../bell/bell-state.cache';
import { insertNotification, insertRecipients } from './sending.queries';

/**
 * Sending (spec: Notification → Create input, States → Notification, `POST /v1/notifications`,
 * `POST /v1/notifications/audience`). One transaction per send: target rules, group resolution,
 * the quota increment, the notification row, its recipients and (scheduled) its release row, so
 * an error leaves nothing behind and uses no quota.
 *
 * Choices the spec leaves open:
 * - Targets: `user_id` xor `audience: "all"`; the group fields (`user_ids`, `emails`,
 *   `contact_ids`, `contacts`) are a third kind of target and may be combined with each other but
 *   not with `user_id` or `audience: "all"` (VALIDATION_ERROR naming the conflicting field).
 *   Group lists must hold at least one item; `contacts: {}` means every contact.
 * - A group goes to the distinct user ids it resolves to (see audience-resolver.service.ts); a group that resolves
 *   to one person is still a group send. Over 10,000 reachable people is TOO_MANY_RECIPIENTS;
 *   nobody reachable is NO_REACHABLE_RECIPIENTS; neither stores anything or uses quota.
 * - `category`: `^[a-z0-9][a-z0-9_-]{0,31}$`. `title` and `body` must not be blank; `body` is
 *   stored as sent and always shown as text. `data` is limited to 2048 bytes of UTF-8 JSON.
 * - `reactions`: `true` copies the project's changelog reaction set as it is at send time (read
 *   from the database, not the cached project); a list must name members of that set, in the
 *   order to show them; `false` or `[]` means none. The notification keeps its list even if the
 *   set changes later.
 * - `send_at` more than 60 days ahead is VALIDATION_ERROR; a past `send_at` sends now.
 * - Broadcasts store one row and nothing per person; single sends list their person once in
 *   notification_recipients, like groups, so "what did user X get" is one index scan.
 */
@Injectable()
export class SendService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly audience: AudienceResolver,
    private readonly quota: NotificationQuota,
    private readonly releases: NotificationReleases,
    private readonly reactionSets: NotificationReactionSets,
    private readonly bells: BellStateCache,
  ) {}

  async createNotification(project: ProjectRef, input: CreateNotificationDto): Promise<WithMeta<SentNotificationDto>> {
    const target = targetOf(input);
    const now = this.clock.now();
    const visibleAt = visibleAtOf(input.send_at, now);
    return this.db.transaction((em) =>
      idempotently(em, input, async () => {
        const reactions = input.reactions === undefined ? null : reactionsOf(input.reactions, await this.reactionSets.read(em, project.id));
        const group = target.kind === 'group' ? await this.reachableGroup(em, project.id, input) : null;
        const month = usageMonthOf(now);
        const usage = await this.quota.consume(em, project, month);
        const row = this.notificationRow(project.id, input, target, group, { now, visibleAt, reactions, month });
        await insertNotification(em, row);
        const recipients = target.kind === 'user' ? [target.userId] : (group?.userIds ?? []);
        if (recipients.length > 0) await insertRecipients(em, project.id, row.id, recipients, visibleAt);
        // A scheduled one too: the bells' copies end at its visible_at only once they know of it.
        if (target.kind === 'broadcast') await this.bells.announceProject(em, project.id);
        else await this.bells.announcePeople(em, project.id, recipients);
        if (row.status === 'scheduled') await this.releases.schedule(em, row);
        const meta: Record<string, unknown> = { usage };
        if (group)
          meta.audience = { asked: group.reachable + group.unreachable, reached: group.reachable, unreachable: group.unreachableSample };
        return new WithMeta(toSentNotificationDto(row, now), meta);
      }),
    );
  }

  /**
   * What a send would do, checked as the send checks its target, storing nothing and using no
   * quota: one user; everyone (the people whose bell has asked); or a group (the audience numbers).
   * The month's usage says whether the quota has room.
   */
  async previewSend(project: ProjectRef, input: CreateNotificationDto): Promise<Record<string, unknown>> {
    const target = targetOf(input);
    const now = this.clock.now();
    const usage = await this.quota.usage(project);
    const when = input.send_at ? visibleAtOf(input.send_at, now).toISOString() : now.toISOString();
    const base = { title: input.title, category: input.category ?? null, visible_at: when, usage };
    if (target.kind === 'user') return { ...base, target: 'user', user_id: target.userId, reachable: 1 };
    if (target.kind === 'broadcast') return { ...base, target: 'all', reachable: await countBellUsers(this.db.manager, project.id) };
    return { ...base, target: 'group', ...(await this.previewAudience(project, input)) };
  }

  /** The numbers a group send would have; stores nothing and uses no quota. */
  async previewAudience(project: ProjectRef, input: AudienceInputDto): Promise<AudiencePreviewDto> {
    if (!GROUP_FIELDS.some((field) => input[field] !== undefined)) {
      throw new ApiError('VALIDATION_ERROR', 'Name the group: user_ids, emails, contact_ids or contacts.', { param: 'user_ids' });
    }
    const group = await this.audience.resolve(this.db.manager, project.id, input);
    return {
      people: group.reachable + group.unreachable,
      reachable: group.reachable,
      unreachable: group.unreachable,
      unreachable_sample: group.unreachableSample,
    };
  }

  private async reachableGroup(em: EntityManager, projectId: string, input: AudienceInputDto): Promise<ResolvedAudience> {
    const group = await this.audience.resolve(em, projectId, input);
    if (group.reachable === 0) {
      throw new ApiError(
        'NO_REACHABLE_RECIPIENTS',
        `None of the ${group.unreachable} people named has a user id the service knows; nothing was sent.`,
      );
    }
    if (group.reachable > NOTIFICATION_LIMITS.groupPeopleMax) {
      throw new ApiError(
        'TOO_MANY_RECIPIENTS',
        `The group reaches ${group.reachable} people; a send may reach at most ${NOTIFICATION_LIMITS.groupPeopleMax}.`,
      );
    }
    return group;
  }

  private notificationRow(
    projectId: string,
    input: CreateNotificationDto,
    target: SendTarget,
    group: ResolvedAudience | null,
    at: { now: Date; visibleAt: Date; reactions: string[] | null; month: string },
  ): NotificationEntity {
    return {
      id: newId('ntf'),
      projectId,
      kind: target.kind,
      userId: target.kind === 'user' ? target.userId : null,
      title: input.title,
      body: input.body,
      actionUrl: input.action_url ?? null,
      icon: input.icon ?? 'info',
      category: input.category ?? null,
      actions: (input.actions ?? []).map(({ label, url }) => ({ label, url })),
      data: input.data ?? null,
      reactions: at.reactions,
      pinned: input.pinned ?? false,
      status: at.visibleAt.getTime() > at.now.getTime() ? 'scheduled' : 'visible',
      visibleAt: at.visibleAt,
      recipientCount: target.kind === 'user' ? 1 : target.kind === 'group' ? (group?.userIds.length ?? 0) : 0,
      usageMonth: at.month,
      changelogEntryId: null,
      createdAt: at.now,
    };
  }
}
