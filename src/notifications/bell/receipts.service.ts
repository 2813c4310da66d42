import { Injectable } from '@nestjs/common';
import type { EndUser } from '../../auth/caller';
import { Clock } from '../../common/clock/clock';
import { ApiError } from '../../common/errors/api-error';
import { WithMeta } from '../../common/http/reply';
import { Database } from '../../infra/database/database.service';
import type { ProjectRef } from '../../projects/project-ref';
import { bellMeta } from './bell-meta';
import { BellStateCache } from './bell-state.cache';
import {
  type BellRow,
  type BellScope,
  type ReceiptChange,
  clearReaction,
  countUnread,
  findInBell,
  markAllRead,
  touchReceipt,
} from './bell.queries';
import { BellNotificationDto, toBellNotificationDto } from './dto/bell-notification.dto';
import { ReadAllResultDto } from './dto/bell-bodies.dto';

/**
 * The bell's writes, per person (spec: States → Notification): read, click, archive and restore,
 * read-all, reactions. A person's state is a receipt row written on their first touch; a broadcast
 * read by one person stays unread for everyone else.
 *
 * Choices the spec leaves open:
 * - A notification not in this person's bell right now (not theirs, a broadcast past its 30 days
 *   and not pinned, scheduled, deleted, another project's) is 404 NOT_FOUND, for every write.
 * - Writes are idempotent: the first read, click and archive times are kept; archiving also reads,
 *   a click also reads; restoring (`archived: false`) leaves it read. Each answers the updated bell
 *   item, with `meta.unread_count` (the new badge) and `meta.poll_interval_seconds`.
 * - read-all answers `{updated, unread_count}`: how many became read, and what is left unread
 *   (other categories when one was named). Archived ones are already read and are not counted.
 * - Reactions: one per person, a new one replaces the old; posting one also marks the notification
 *   read (the person saw it). A name outside the notification's `reactions`, or any name on a
 *   notification that takes none, is 400 VALIDATION_ERROR (`param: reaction`). DELETE removes the
 *   person's reaction and answers the item (without a reaction it changes nothing).
 * - Writes are not counted in the hourly bell read limit (that limit is for polling); they stay
 *   under the per-IP browser limit.
 * - The spec's note that PATCH read is "Builder" does not gate it: marking read is the bell's core,
 *   on every plan.
 */
@Injectable()
export class ReceiptsService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly bells: BellStateCache,
  ) {}

  markRead(project: ProjectRef, user: EndUser, notificationId: string): Promise<WithMeta<BellNotificationDto>> {
    return this.touch(project, user, notificationId, { read: true });
  }

  markClicked(project: ProjectRef, user: EndUser, notificationId: string): Promise<WithMeta<BellNotificationDto>> {
    return this.touch(project, user, notificationId, { clicked: true });
  }

  setArchived(project: ProjectRef, user: EndUser, notificationId: string, archived: boolean): Promise<WithMeta<BellNotificationDto>> {
    return this.touch(project, user, notificationId, { archived });
  }

  async react(project: ProjectRef, user: EndUser, notificationId: string, reaction: string): Promise<WithMeta<BellNotificationDto>> {
    return this.inTransaction(project, user, async (em, scope) => {
      const current = await findInBell(em, scope, notificationId);
      if (!current) throw notFound(notificationId);
      if (!current.reactions || current.reactions.length === 0) {
        throw new ApiError('VALIDATION_ERROR', 'This notification takes no reactions.', {
          param: 'reaction',
          remediation: 'Offer reactions only on notifications whose `reactions` list is not null.',
        });
      }
      if (!current.reactions.includes(reaction)) {
        throw new ApiError('VALIDATION_ERROR', `reaction must be one of: ${current.reactions.join(', ')}.`, { param: 'reaction' });
      }
      const row = await touchReceipt(em, scope, notificationId, { read: true, reaction });
      if (!row) throw notFound(notificationId);
      return row;
    });
  }

  async removeReaction(project: ProjectRef, user: EndUser, notificationId: string): Promise<WithMeta<BellNotificationDto>> {
    return this.inTransaction(project, user, async (em, scope) => {
      const row = await clearReaction(em, scope, notificationId);
      if (!row) throw notFound(notificationId);
      return row;
    });
  }

  async markAllRead(project: ProjectRef, user: EndUser, category: string | undefined): Promise<WithMeta<ReadAllResultDto>> {
    const scope = this.scopeOf(project, user);
    const result = await this.db.transaction(async (em) => {
      const updated = await markAllRead(em, scope, category);
      await this.bells.announcePeople(em, project.id, [user.userId]);
      return { updated, unread_count: await countUnread(em, scope) };
    });
    return new WithMeta(result, bellMeta(project, user));
  }

  private touch(project: ProjectRef, user: EndUser, notificationId: string, change: ReceiptChange): Promise<WithMeta<BellNotificationDto>> {
    return this.inTransaction(project, user, async (em, scope) => {
      const row = await touchReceipt(em, scope, notificationId, change);
      if (!row) throw notFound(notificationId);
      return row;
    });
  }

  /** One transaction: the write and the badge it leaves, so the answer is consistent. */
  private async inTransaction(
    project: ProjectRef,
    user: EndUser,
    work: (em: Parameters<typeof countUnread>[0], scope: BellScope) => Promise<BellRow>,
  ): Promise<WithMeta<BellNotificationDto>> {
    const scope = this.scopeOf(project, user);
    const { row, unreadCount } = await this.db.transaction(async (em) => {
      const touched = await work(em, scope);
      await this.bells.announcePeople(em, project.id, [user.userId]);
      return { row: touched, unreadCount: await countUnread(em, scope) };
    });
    return new WithMeta(toBellNotificationDto(row), bellMeta(project, user, { unread_count: unreadCount }));
  }

  private scopeOf(project: ProjectRef, user: EndUser): BellScope {
    return { projectId: project.id, userId: user.userId, now: this.clock.now() };
  }
}

function notFound(notificationId: string): ApiError {
  return new ApiError('NOT_FOUND', `Notification ${notificationId.slice(0, 64)} is not in this person's bell.`, {
    param: 'id',
    remediation: "Use an id from this person's inbox: a notification sent to them, or a broadcast of the last 30 days.",
  });
}
