import { Injectable } from '@nestjs/common';
import type { EndUser } from '../../auth/caller';
import { Clock } from '../../common/clock/clock';
import { WithMeta } from '../../common/http/reply';
import { Database } from '../../infra/database/database';
import type { ProjectRef } from '../../projects/project-ref';
import { BellReadsLimit } from './bell-reads.limit';
import { bellMeta } from './bell-meta';
import { type BellScope, countUnread, listBell } from './bell.queries';
import { BellNotificationDto, toBellNotificationDto } from './dto/bell-notification.dto';
import { UnreadCountDto } from './dto/bell-bodies.dto';
import { BELL_DEFAULT_LIMIT, InboxQueryDto, UnreadQueryDto } from './dto/bell-query.dto';

/**
 * The bell's reads (spec: Notifications → Bell calls): `inbox`, `unread` and `unread/count`.
 *
 * Choices the spec leaves open:
 * - A bell holds the person's own notifications (user and group sends) and the project's broadcasts
 *   of the last 30 days (pinned ones until retention deletes them, 90 days after showing), only
 *   what is visible by now; newest first by the time it showed (`visible_at`, then id). Pinned
 *   ones come first until the person archives them.
 * - `unread_count` (in `meta` of the lists, `data` of unread/count) is the bell's badge: every
 *   unread, unarchived notification of the person, whatever the list's filters (`category`,
 *   `since`, `archived`, `limit`), so a filtered list never changes the badge.
 * - `poll_interval_seconds` is in `meta` of all three (the plan's interval).
 * - `since` means "showed after" (exclusive); with it a poll returns only the new part. There is no
 *   cursor: a bell shows the newest 50 at most, and `since` is the way to poll incrementally.
 * - The hourly per-person read limit counts every call of the three, by secret keys too (a server
 *   reading for its users is still one person's bell); it is checked before the read.
 * - Each read is one statement, outside a transaction; the only write is the hourly bell_users upsert.
 */
@Injectable()
export class InboxService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly reads: BellReadsLimit,
  ) {}

  async listInbox(project: ProjectRef, user: EndUser, query: InboxQueryDto): Promise<WithMeta<BellNotificationDto[]>> {
    return this.list(project, user, query, false);
  }

  async listUnread(project: ProjectRef, user: EndUser, query: UnreadQueryDto): Promise<WithMeta<BellNotificationDto[]>> {
    return this.list(project, user, query, true);
  }

  async countUnread(project: ProjectRef, user: EndUser): Promise<WithMeta<UnreadCountDto>> {
    await this.reads.count(project, user.userId);
    const unreadCount = await countUnread(this.db.manager, this.scopeOf(project, user));
    return new WithMeta({ unread_count: unreadCount }, bellMeta(project, user));
  }

  private async list(
    project: ProjectRef,
    user: EndUser,
    query: InboxQueryDto,
    unreadOnly: boolean,
  ): Promise<WithMeta<BellNotificationDto[]>> {
    await this.reads.count(project, user.userId);
    const scope = this.scopeOf(project, user);
    const em = this.db.manager;
    const [rows, unreadCount] = await Promise.all([
      listBell(em, scope, {
        limit: query.limit ?? BELL_DEFAULT_LIMIT,
        since: query.since ? new Date(query.since) : undefined,
        category: query.category,
        archived: query.archived,
        unreadOnly,
      }),
      countUnread(em, scope),
    ]);
    return new WithMeta(rows.map(toBellNotificationDto), bellMeta(project, user, { unread_count: unreadCount }));
  }

  private scopeOf(project: ProjectRef, user: EndUser): BellScope {
    return { projectId: project.id, userId: user.userId, now: this.clock.now() };
  }
}
