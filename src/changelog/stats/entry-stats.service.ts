import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock/clock';
import { ApiError } from '../../common/errors/api-error';
import { WithMeta } from '../../common/http/reply';
import { isId } from '../../common/ids/ids';
import { Database } from '../../infra/database/database.service';
import { planAllows } from '../../projects/plans';
import type { ProjectRef } from '../../projects/project-ref';
import type { AfterReadingDto, AfterReadingGroupDto } from './dto/after-reading.dto';
import { type EntryStatsDto, INSIGHT_FIELDS, STATS_DEFAULT_LIMIT, type LatestStatsQueryDto } from './dto/entry-stats.dto';
import { PaymentOutcomesService, type PaymentOutcomes } from '../../revenue/payment-outcomes.service';
import { type EntryStatsRow, readAfterReadingGroups, readEntryStats, readLatestStats } from './stats.queries';

const AFTER_READING_DAYS = 14;
const DAY_MS = 86_400_000;
// Spec: small_numbers when either group has fewer than 30 people or fewer than 5 events.
const SMALL_GROUP = 30;
const SMALL_EVENTS = 5;

const ENTRY_NOT_FOUND = () =>
  new ApiError('NOT_FOUND', 'This project has no changelog entry with this id.', {
    param: 'id',
    remediation: 'List the entries with GET /v1/changelog/entries and use one of their ids.',
  });

/**
 * The per-entry numbers and the after-reading comparison (spec: Per-entry numbers, After reading).
 * Counts come from the engagement buffer's flush (EngagementFlusher), so they run a second or two behind the widget.
 * Below Indie the readers, button-click and feedback numbers are null and `meta.locked` names them,
 * so one answer shape serves every plan and the dashboard can show what an upgrade unlocks.
 */
@Injectable()
export class EntryStatsService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly payments: PaymentOutcomesService,
  ) {}

  async entryStats(project: ProjectRef, entryId: string): Promise<EntryStatsDto | WithMeta<EntryStatsDto>> {
    const row = isId('ce', entryId) ? await readEntryStats(this.db.manager, project.id, entryId) : null;
    if (!row) throw ENTRY_NOT_FOUND();
    return this.withLock(project, toEntryStatsDto(row, planAllows(project.plan, 'entry_insights')));
  }

  async latestStats(project: ProjectRef, query: LatestStatsQueryDto): Promise<EntryStatsDto[] | WithMeta<EntryStatsDto[]>> {
    const rows = await readLatestStats(this.db.manager, project.id, query.limit ?? STATS_DEFAULT_LIMIT);
    const insights = planAllows(project.plan, 'entry_insights');
    return this.withLock(
      project,
      rows.map((row) => toEntryStatsDto(row, insights)),
    );
  }

  /**
   * Readers against non-readers over the 14 days after publication. `paid` and `upgraded` come from
   * the project's payment-processor connection (revenue/payment-outcomes.service.ts) once it has
   * synced; without one they are null, which makes the comparison a small number. The events
   * counted for `small_numbers` are the paid and upgraded people of both groups. `signed_up` is
   * never computed.
   */
  async afterReading(project: ProjectRef, entryId: string): Promise<AfterReadingDto> {
    const row = isId('ce', entryId) ? await readEntryStats(this.db.manager, project.id, entryId) : null;
    if (!row) throw ENTRY_NOT_FOUND();
    if (row.publishedAt === null || row.status === 'scheduled') {
      throw new ApiError('ENTRY_NOT_PUBLISHED', 'This entry has not been published, so nobody has read it yet.', { param: 'id' });
    }
    const from = row.publishedAt;
    const to = new Date(from.getTime() + AFTER_READING_DAYS * DAY_MS);
    const now = this.clock.now();
    const end = to < now ? to : now;
    const groups = await readAfterReadingGroups(this.db.manager, project.id, entryId, from, end);
    const outcomes = await this.payments.outcomes(project.id, [...groups.readers, ...groups.nonReaders], from, end);
    const readers = groupOutcomes(groups.readers, outcomes);
    const nonReaders = groupOutcomes(groups.nonReaders, outcomes);
    // No outcome events are known without a processor connection: fewer than 5, by definition.
    const events = outcomes ? (readers.paid ?? 0) + (readers.upgraded ?? 0) + (nonReaders.paid ?? 0) + (nonReaders.upgraded ?? 0) : null;
    const notes = [
      { field: 'signed_up', code: 'not_computed', message: 'Sign-ups are not computed: both groups are people known before publication.' },
    ];
    if (!outcomes) {
      notes.push({
        field: 'paid',
        code: 'no_processor_connection',
        message: 'paid and upgraded need a payment-processor connection that has synced; there is none, so they are null.',
      });
    }
    return {
      entry_id: entryId,
      window: { from: from.toISOString(), to: to.toISOString(), complete: now >= to },
      readers,
      non_readers: nonReaders,
      small_numbers: isSmall(groups.readers.length, groups.nonReaders.length, events),
      notes,
    };
  }

  private withLock<T>(project: ProjectRef, data: T): T | WithMeta<T> {
    return planAllows(project.plan, 'entry_insights') ? data : new WithMeta(data, { locked: [...INSIGHT_FIELDS] });
  }
}

function isSmall(readers: number, nonReaders: number, events: number | null): boolean {
  return readers < SMALL_GROUP || nonReaders < SMALL_GROUP || events === null || events < SMALL_EVENTS;
}

const rate = (count: number, people: number): number | null => (people === 0 ? null : Math.round((count / people) * 1000) / 1000);

function groupOutcomes(userIds: string[], outcomes: PaymentOutcomes | null): AfterReadingGroupDto {
  const people = userIds.length;
  if (!outcomes) return { people, paid: null, paid_rate: null, upgraded: null, upgraded_rate: null, signed_up: null };
  const paid = userIds.filter((id) => outcomes.paid.has(id)).length;
  const upgraded = userIds.filter((id) => outcomes.upgraded.has(id)).length;
  return { people, paid, paid_rate: rate(paid, people), upgraded, upgraded_rate: rate(upgraded, people), signed_up: null };
}

function toEntryStatsDto(row: EntryStatsRow, insights: boolean): EntryStatsDto {
  return {
    entry_id: row.id,
    title: row.title,
    status: row.status,
    published_at: row.publishedAt ? row.publishedAt.toISOString() : null,
    views: row.views,
    reactions: row.reactions,
    readers: insights ? { signed_in: row.signedInReaders, anonymous: row.anonymousReaders } : null,
    cta_clicks: insights ? row.ctaClicks : null,
    feedback: insights ? row.feedback : null,
  };
}
