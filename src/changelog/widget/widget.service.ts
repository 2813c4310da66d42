import { Inject, Injectable } from '@nestjs/common';
import type { EndUser } from '../../auth/caller';
import { Clock } from '../../common/clock/clock';
import { ApiError } from '../../common/errors/api-error';
import { decodeCursor, encodeCursor, publishedCursorValue, publishedKeyOf } from '../../common/http/cursor';
import { isId } from '../../common/ids/ids';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { Database } from '../../infra/database/database.service';
import { planAllows } from '../../projects/plans';
import type { ProjectRef } from '../../projects/project-ref';
import { entryPublicUrl } from '../shared/changelog-links';
import { EngagementCaps } from '../engagement/engagement-caps.service';
import { EngagementRecorder } from '../engagement/engagement-recorder.service';
import type { ReactionName } from '../shared/reaction-set';
import { type EntryPresentation, toWidgetAnnouncementDto, toWidgetEntryDto } from './dto/widget-mappers';
import type { WidgetAnnouncementAnswerDto, WidgetEntriesDto, WidgetRecordedDto, WidgetUnseenDto } from './dto/widget.dto';
import {
  WIDGET_DEFAULT_LIMIT,
  type WidgetEntriesQueryDto,
  type WidgetReaderDto,
  type WidgetSeenDto,
  type WidgetUnseenQueryDto,
} from './dto/widget-input.dto';
import { RenderedBodies } from './rendered-bodies';
import { readerOf } from './widget-reader';
import { countPublishedSince, readAnnouncement, readUnseenIds, readWidgetPage, visibleEntryIds } from './widget.queries';

const PAGE_KEY = { field: 'published', prefix: 'ce' } as const;
// Unseen counts look back this far: older entries are history, not news.
export const UNSEEN_WINDOW_DAYS = 90;
const DAY_MS = 86_400_000;

const ENTRY_NOT_FOUND = () =>
  new ApiError('NOT_FOUND', 'No entry with this id is shown to this reader.', {
    param: 'id',
    remediation: 'Use the id of an entry from GET /v1/changelog/widget/entries for the same reader.',
  });

/**
 * The changelog widget's reads and counts (spec: Widget endpoints). Every answer is filtered to what
 * this reader may see (shared/public-set.ts `readerEntryCondition`), so a signed-in or segment entry never
 * reaches an anonymous or non-matching reader. Views, clicks and reads go to the engagement recorder
 * (buffered in Redis or appended to a buffer table; no counter row write per request). Choices
 * where the spec is silent, documented in docs/changelog.md: `entries`
 * holds the unpinned entries and `pinned` the pinned ones on the first page; `unseen_count` looks
 * back 90 days and stops at 100; `show_badge` is the Free plan's "Powered by" badge.
 */
@Injectable()
export class WidgetService {
  private readonly bodies = new RenderedBodies();

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly recorder: EngagementRecorder,
    private readonly caps: EngagementCaps,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async listEntries(project: ProjectRef, endUser: EndUser | null, query: WidgetEntriesQueryDto): Promise<WidgetEntriesDto> {
    const reader = readerOf(endUser, query.client_id);
    const after = query.cursor ? publishedKeyOf('ce', decodeCursor(query.cursor, PAGE_KEY)) : null;
    const limit = query.limit ?? WIDGET_DEFAULT_LIMIT;
    const now = this.clock.now();
    const page = await readWidgetPage(this.db.preparedReads, project.id, reader, {
      now,
      label: query.label ?? null,
      q: query.q ?? null,
      category: query.category ?? null,
      after,
      limit,
      unseenAfter: this.unseenAfter(now, null),
    });
    const show = this.presentation(project, reader.userId, page.reactionSet);
    const { pinned, page: unpinned } = page;
    const entries = unpinned.slice(0, limit);
    const last = entries[entries.length - 1];
    return {
      entries: entries.map((row) => toWidgetEntryDto(row, show)),
      pinned: pinned.map((row) => toWidgetEntryDto(row, show)),
      next_cursor: unpinned.length > limit ? encodeCursor(PAGE_KEY, publishedCursorValue(last.publishedAt, last.id)) : null,
      unseen_count: page.unseenIds === null ? null : this.withoutPendingReads(page.unseenIds, reader.userId).length,
      announcement: page.announcement && !show.pendingRead(page.announcement.id) ? toWidgetAnnouncementDto(page.announcement, show) : null,
      labels: page.labels,
      reactions: [...show.reactionSet],
      project: {
        name: project.name,
        show_badge: !planAllows(project.plan, 'unbranded_widget'),
        hosted_url: `${this.config.publicBaseUrl}/changelog/${project.slug}`,
        subscribe: { enabled: true, url: `${this.config.publicBaseUrl}/v1/changelog/subscribers` },
      },
    };
  }

  async unseen(project: ProjectRef, endUser: EndUser | null, query: WidgetUnseenQueryDto): Promise<WidgetUnseenDto> {
    const reader = readerOf(endUser, query.client_id);
    const now = this.clock.now();
    const after = this.unseenAfter(now, query.since ?? null);
    if (reader.userId === null) return { unseen_count: await countPublishedSince(this.db.preparedReads, project.id, now, after) };
    const ids = await readUnseenIds(this.db.preparedReads, project.id, reader.userId, now, after);
    return { unseen_count: this.withoutPendingReads(ids, reader.userId).length };
  }

  async announcement(project: ProjectRef, endUser: EndUser | null, query: WidgetReaderDto): Promise<WidgetAnnouncementAnswerDto> {
    const reader = readerOf(endUser, query.client_id);
    const { announcement: row, reactionSet } = await readAnnouncement(this.db.preparedReads, project.id, reader, this.clock.now());
    const show = this.presentation(project, reader.userId, reactionSet);
    return { announcement: row && !show.pendingRead(row.id) ? toWidgetAnnouncementDto(row, show) : null };
  }

  /**
   * Counts a view of each entry this reader may see among those sent; a verified user has now seen
   * them (unseen count, announcement); an anonymous browser's `first_time_ids` count as anonymous
   * readers. Ids the reader may not see are skipped, not refused (an entry can expire while shown).
   * Views and anonymous readers past the address's hourly cap (EngagementCaps) are answered the
   * same and not counted; a verified user's read always is (one per person).
   */
  async seen(project: ProjectRef, endUser: EndUser | null, body: WidgetSeenDto, addressKey: string): Promise<WidgetRecordedDto> {
    const reader = readerOf(endUser, body.client_id);
    const now = this.clock.now();
    const visible = await visibleEntryIds(
      this.db.manager,
      project.id,
      reader.userId,
      [...body.entry_ids, ...(body.first_time_ids ?? [])],
      now,
    );
    const shown = [...new Set(body.entry_ids)].filter((id) => visible.includes(id));
    const firstTime = reader.userId === null ? [...new Set(body.first_time_ids ?? [])].filter((id) => visible.includes(id)) : [];
    const [viewed, firstReads] = await Promise.all([
      this.caps.within('views', addressKey, shown),
      this.caps.within('anonymousReaders', addressKey, firstTime),
    ]);
    await this.recorder.record(project.id, now, {
      views: { surface: 'widget', entryIds: viewed },
      ...(reader.userId !== null ? { reads: { userId: reader.userId, entryIds: shown } } : { anonymousReaders: firstReads }),
    });
    return { recorded: shown.length };
  }

  /** Counts a press of the entry's button (within the address's hourly cap); an entry this reader may not see is 404. */
  async click(
    project: ProjectRef,
    endUser: EndUser | null,
    entryId: string,
    body: WidgetReaderDto,
    addressKey: string,
  ): Promise<WidgetRecordedDto> {
    const reader = readerOf(endUser, body.client_id);
    const now = this.clock.now();
    const visible = isId('ce', entryId) ? await visibleEntryIds(this.db.manager, project.id, reader.userId, [entryId], now) : [];
    if (visible.length === 0) throw ENTRY_NOT_FOUND();
    if (await this.caps.allows('ctaClicks', addressKey, entryId)) await this.recorder.record(project.id, now, { ctaClicks: [entryId] });
    return { recorded: 1 };
  }

  private unseenAfter(now: Date, since: string | null): Date {
    const windowStart = now.getTime() - UNSEEN_WINDOW_DAYS * DAY_MS;
    return new Date(Math.max(windowStart, since ? new Date(since).getTime() : windowStart));
  }

  private withoutPendingReads(ids: readonly string[], userId: string | null): string[] {
    return userId === null ? [...ids] : ids.filter((id) => !this.recorder.hasPendingRead(id, userId));
  }

  private presentation(project: ProjectRef, userId: string | null, reactionSet: readonly ReactionName[]): EntryPresentation {
    return {
      publicUrl: (entryId) => entryPublicUrl(this.config, project.slug, entryId),
      bodyHtml: (row) => this.bodies.htmlOf(row.id, row.updatedAt, row.bodyMarkdown),
      reactionSet,
      pendingRead: (entryId) => userId !== null && this.recorder.hasPendingRead(entryId, userId),
    };
  }
}

export { ENTRY_NOT_FOUND };
