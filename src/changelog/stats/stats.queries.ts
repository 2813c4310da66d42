import type { EntityManager } from 'typeorm';
import { contactUserIdsCreatedBefore } from '../../contacts/contacts.service';
import { feedbackCountOfEntry } from '../../feedback/feedback.service';
import { bellUserIdsSeenBefore } from '../../notifications/changelog-broadcasts.service';
import type { EntryStatus } from '../entities/changelog-entry.entity';
import type { ReactionName } from '../shared/reaction-set';

export interface EntryStatsRow {
  id: string;
  title: string;
  status: EntryStatus;
  publishedAt: Date | null;
  views: number;
  ctaClicks: number;
  anonymousReaders: number;
  signedInReaders: number;
  reactions: Partial<Record<ReactionName, number>>;
  feedback: number;
}

const STATS_COLUMNS = `e.id, e.title, e.status, e.published_at,
  coalesce(c.views, 0)::int AS views, coalesce(c.cta_clicks, 0)::int AS cta_clicks, coalesce(c.anonymous_readers, 0)::int AS anonymous_readers,
  (SELECT count(*) FROM changelog_readers r WHERE r.entry_id = e.id)::int AS signed_in_readers,
  (SELECT coalesce(json_object_agg(rc.reaction, rc.count), '{}') FROM changelog_reaction_counts rc WHERE rc.entry_id = e.id AND rc.count > 0) AS reactions,
  ${feedbackCountOfEntry('e.project_id', 'e.id')}::int AS feedback`;

const COUNTS = `LEFT JOIN LATERAL (
  SELECT sum(widget_views + page_views) AS views, sum(cta_clicks) AS cta_clicks, sum(anonymous_readers) AS anonymous_readers
  FROM changelog_entry_counts c WHERE c.entry_id = e.id) c ON true`;

/** One entry's numbers, or null when the project has no such entry. */
export async function readEntryStats(em: EntityManager, projectId: string, entryId: string): Promise<EntryStatsRow | null> {
  const rows: Record<string, unknown>[] = await em.query(
    `SELECT ${STATS_COLUMNS} FROM changelog_entries e ${COUNTS} WHERE e.project_id = $1 AND e.id = $2`,
    [projectId, entryId],
  );
  return rows.length === 0 ? null : toStatsRow(rows[0]);
}

/** The numbers of the latest published entries (archived ones included: they were read), newest first. */
export async function readLatestStats(em: EntityManager, projectId: string, limit: number): Promise<EntryStatsRow[]> {
  const rows: Record<string, unknown>[] = await em.query(
    `SELECT ${STATS_COLUMNS} FROM (
       SELECT * FROM changelog_entries WHERE project_id = $1 AND published_at IS NOT NULL ORDER BY published_at DESC, id DESC LIMIT $2
     ) e ${COUNTS}
     ORDER BY e.published_at DESC, e.id DESC`,
    [projectId, limit],
  );
  return rows.map(toStatsRow);
}

interface AfterReadingGroups {
  /** User ids of each group. */
  readers: string[];
  nonReaders: string[];
}

/**
 * The two groups of the after-reading comparison: readers are the verified users first shown the
 * entry in [from, to); non-readers are the people known by user id before publication (a contact
 * with a user id, a bell user, or a reader of an earlier entry) who are not readers.
 */
export async function readAfterReadingGroups(
  em: EntityManager,
  projectId: string,
  entryId: string,
  from: Date,
  to: Date,
): Promise<AfterReadingGroups> {
  const rows: { user_id: string; reader: boolean }[] = await em.query(
    `WITH readers AS (
       SELECT user_id FROM changelog_readers WHERE entry_id = $2 AND first_seen_at >= $3 AND first_seen_at < $4
     ), known AS (
       ${contactUserIdsCreatedBefore('$1', '$3')}
       UNION ${bellUserIdsSeenBefore('$1', '$3')}
       UNION SELECT user_id FROM changelog_readers WHERE project_id = $1 AND first_seen_at < $3
     )
     SELECT user_id, true AS reader FROM readers
     UNION ALL SELECT k.user_id, false FROM known k WHERE NOT EXISTS (SELECT 1 FROM readers r WHERE r.user_id = k.user_id)`,
    [projectId, entryId, from, to],
  );
  return {
    readers: rows.filter((row) => row.reader).map((row) => row.user_id),
    nonReaders: rows.filter((row) => !row.reader).map((row) => row.user_id),
  };
}

function toStatsRow(row: Record<string, unknown>): EntryStatsRow {
  return {
    id: row.id as string,
    title: row.title as string,
    status: row.status as EntryStatus,
    publishedAt: row.published_at as Date | null,
    views: row.views as number,
    ctaClicks: row.cta_clicks as number,
    anonymousReaders: row.anonymous_readers as number,
    signedInReaders: row.signed_in_readers as number,
    reactions: row.reactions as EntryStatsRow['reactions'],
    feedback: row.feedback as number,
  };
}
