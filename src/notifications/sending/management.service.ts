import { Injectable } from '@nestjs/common';
import { Brackets } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { ApiError } from '../../common/errors/api-error';
import { listPage, newestFirst } from '../../common/http/list-page';
import { Paged } from '../../common/http/reply';
import { isId } from '../../common/ids/ids';
import { Database } from '../../infra/database/database.service';
import type { ProjectRef } from '../../projects/project-ref';
import { BellStateCache } from '../bell/bell-state.cache';
import { NotificationEntity } from '../entities/notification.entity';
import type { ListNotificationsQueryDto } from './dto/list-notifications-query.dto';
import {
  type DeletedNotificationDto,
  type NotificationDetailDto,
  type NotificationStatsDto,
  type SentNotificationDto,
  toSentNotificationDto,
} from './dto/sent-notification.dto';
import { rateOf } from './notification-input';
import { NotificationQuota } from './notification-quota.service';
import { bellUsersSeenSince, receiptCounts, readReceiptExists, SENT_TO_USER } from './sending.queries';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * What was sent (spec: `GET /v1/notifications`, `GET /v1/notifications/{id}` with `stats`,
 * `DELETE /v1/notifications/{id}`; the dashboard has the same three).
 *
 * Choices the spec leaves open:
 * - "Scheduled" goes by time, as bells do: a notification is scheduled while `send_at` is ahead,
 *   even if its release job is late; once the time has come it is listed and shown as visible.
 * - `user_id` lists single-user and group sends that person was in (not broadcasts, which go to
 *   everyone). `audience`: `user` = single-user and group sends, `group` = group sends only,
 *   `all` = broadcasts.
 * - `status` with `user_id` is that person's state (a receipt with `read_at`); without it, `read`
 *   = read by at least one person and `unread` = shown and read by nobody. `read` and `unread`
 *   never list scheduled notifications.
 * - Stats: `reached` is 1, the group's size, or (broadcast) the bell users whose bell asked at or
 *   after it showed, never below `read`; 0 while scheduled. `reactions` lists every name the
 *   notification takes, with 0 for names nobody chose. Rates round half up to 3 decimals.
 * - DELETE removes the row; recipients, receipts and a pending release go with it (foreign keys
 *   cascade), so it leaves every bell at once. A notification deleted while still scheduled
 *   gives its send back to the month it counted in; a shown one keeps counting.
 */
@Injectable()
export class ManagementService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly quota: NotificationQuota,
    private readonly bells: BellStateCache,
  ) {}

  async listNotifications(project: ProjectRef, query: ListNotificationsQueryDto): Promise<Paged<SentNotificationDto>> {
    const now = this.clock.now();
    const qb = this.db.manager.createQueryBuilder(NotificationEntity, 'n').where('n.project_id = :projectId', { projectId: project.id });
    if (query.user_id) {
      // ix_notification_recipients_user: the person's sends, whatever the project's size.
      qb.andWhere(SENT_TO_USER, { userId: query.user_id });
    }
    if (query.audience === 'all') qb.andWhere("n.kind = 'broadcast'");
    if (query.audience === 'user') qb.andWhere("n.kind IN ('user', 'group')");
    if (query.audience === 'group') qb.andWhere("n.kind = 'group'");
    if (query.category) qb.andWhere('n.category = :category', { category: query.category });
    if (query.status === 'scheduled') qb.andWhere("n.status = 'scheduled' AND n.visible_at > :now", { now });
    if (query.status === 'read' || query.status === 'unread') {
      const exists = readReceiptExists(Boolean(query.user_id));
      qb.andWhere('n.visible_at <= :now', { now });
      qb.andWhere(query.status === 'read' ? exists : new Brackets((w) => w.where(`NOT ${exists}`)));
    }
    return listPage(qb, query, newestFirst('ntf'), (row) => toSentNotificationDto(row, now));
  }

  async getNotification(project: ProjectRef, notificationId: string): Promise<NotificationDetailDto> {
    const row = await this.findOrFail(project, notificationId);
    const now = this.clock.now();
    return { ...toSentNotificationDto(row, now), stats: await this.statsOf(row, now) };
  }

  async deleteNotification(project: ProjectRef, notificationId: string): Promise<DeletedNotificationDto> {
    return this.db.transaction(async (em) => {
      const row = await em.findOne(NotificationEntity, {
        where: { projectId: project.id, id: isId('ntf', notificationId) ? notificationId : '' },
        lock: { mode: 'pessimistic_write' },
      });
      if (!row) throw notFound(notificationId);
      await em.delete(NotificationEntity, { id: row.id, projectId: project.id });
      await this.bells.announceProject(em, project.id);
      const stillScheduled = row.status === 'scheduled' && row.visibleAt.getTime() > this.clock.now().getTime();
      if (stillScheduled && row.usageMonth) await this.quota.giveBack(em, project.id, row.usageMonth);
      return { id: row.id, deleted: true as const };
    });
  }

  private async findOrFail(project: ProjectRef, notificationId: string): Promise<NotificationEntity> {
    const row = isId('ntf', notificationId)
      ? await this.db.manager.findOne(NotificationEntity, { where: { projectId: project.id, id: notificationId } })
      : null;
    if (!row) throw notFound(notificationId);
    return row;
  }

  private async statsOf(row: NotificationEntity, now: Date): Promise<NotificationStatsDto> {
    const em = this.db.manager;
    const counts = await receiptCounts(em, row.projectId, row.id);
    const shown = row.visibleAt.getTime() <= now.getTime();
    const broadcast = row.kind === 'broadcast';
    let reached = 0;
    if (shown) reached = broadcast ? Math.max(counts.read, await bellUsersSeenSince(em, row.projectId, row.visibleAt)) : row.recipientCount;
    return {
      reached,
      read: counts.read,
      clicked: counts.clicked,
      read_rate: rateOf(counts.read, reached),
      click_rate: rateOf(counts.clicked, reached),
      reactions: row.reactions ? Object.fromEntries(row.reactions.map((name) => [name, counts.reactions[name] ?? 0])) : null,
      active_7d: broadcast ? await bellUsersSeenSince(em, row.projectId, new Date(now.getTime() - 7 * DAY_MS)) : null,
    };
  }
}

function notFound(notificationId: string): ApiError {
  return new ApiError('NOT_FOUND', `No notification ${notificationId.slice(0, 64)} in this project.`, { param: 'id' });
}
