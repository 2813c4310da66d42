import { Injectable } from '@nestjs/common';
import type { EndUser } from '../../auth/caller';
import { Clock } from '../../common/clock/clock';
import { envelopeTag, holdsTag } from '../../common/http/envelope';
import { Versioned, WithMeta } from '../../common/http/reply';
import { Database } from '../../infra/database/database.service';
import type { ProjectRef } from '../../projects/project-ref';
import { BellReadsLimit } from './bell-reads-limit.service';
import { bellMeta } from './bell-meta';
import { BellStateCache } from './bell-state.cache';
import { type BellScope, listBell } from './bell.queries';
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
 * - The badge comes from this process's copy of the person's bell state while nothing changed it
 *   (bell-state.cache.ts): an unchanged `unread/count` poll runs no SQL. All three carry an
 *   ETag (a hash of the answer, equal on every process). The count's is hashed once per state, so
 *   an unchanged conditional count poll is 304 without SQL or hashing; a list polled with
 *   If-None-Match naming the tag this process answered from the state it still holds is 304
 *   without SQL, and any other conditional poll whose answer is unchanged is 304 after the query,
 *   without the body.
 */
@Injectable()
export class InboxService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly reads: BellReadsLimit,
    private readonly bells: BellStateCache,
  ) {}

  async listInbox(
    project: ProjectRef,
    user: EndUser,
    query: InboxQueryDto,
    ifNoneMatch?: string,
  ): Promise<Versioned<BellNotificationDto[]>> {
    return this.list(project, user, query, false, ifNoneMatch);
  }

  async listUnread(
    project: ProjectRef,
    user: EndUser,
    query: UnreadQueryDto,
    ifNoneMatch?: string,
  ): Promise<Versioned<BellNotificationDto[]>> {
    return this.list(project, user, query, true, ifNoneMatch);
  }

  async countUnread(project: ProjectRef, user: EndUser, ifNoneMatch?: string): Promise<Versioned<UnreadCountDto>> {
    await this.reads.count(project, user.userId);
    const state = await this.bells.state(this.scopeOf(project, user));
    const answer = new WithMeta({ unread_count: state.unreadCount }, bellMeta(project, user));
    // The answer is the state's count and the meta: its tag is hashed once per state and variant.
    const variant = `count:${JSON.stringify(answer.meta)}`;
    let tag = state.answerTags.get(variant);
    if (tag === undefined) state.answerTags.set(variant, (tag = envelopeTag(answer)));
    return new Versioned(tag, holdsTag(ifNoneMatch, tag) ? null : answer);
  }

  private async list(
    project: ProjectRef,
    user: EndUser,
    query: InboxQueryDto,
    unreadOnly: boolean,
    ifNoneMatch: string | undefined,
  ): Promise<Versioned<BellNotificationDto[]>> {
    await this.reads.count(project, user.userId);
    const scope = this.scopeOf(project, user);
    // The answer's shape depends on the query, the plan (poll interval) and the verification mode.
    const variant = JSON.stringify([unreadOnly, query.limit, query.since, query.category, query.archived, bellMeta(project, user)]);
    const held = this.bells.peek(project.id, user.userId, scope.now.getTime())?.answerTags.get(variant);
    if (held && holdsTag(ifNoneMatch, held)) return new Versioned(held, null);

    const state = await this.bells.state(scope);
    const rows = await listBell(this.db.manager, scope, {
      limit: query.limit ?? BELL_DEFAULT_LIMIT,
      since: query.since ? new Date(query.since) : undefined,
      category: query.category,
      archived: query.archived,
      unreadOnly,
    });
    const answer = new WithMeta(rows.map(toBellNotificationDto), bellMeta(project, user, { unread_count: state.unreadCount }));
    const tag = envelopeTag(answer);
    // Remembered only if no write dropped the state while the rows were read: the tag then names
    // what this state shows, until the state goes.
    if (this.bells.peek(project.id, user.userId, scope.now.getTime()) === state) state.answerTags.set(variant, tag);
    return new Versioned(tag, answer);
  }

  private scopeOf(project: ProjectRef, user: EndUser): BellScope {
    return { projectId: project.id, userId: user.userId, now: this.clock.now() };
  }
}
