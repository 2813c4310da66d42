import type { EntityManager } from 'typeorm';
import type { StatementRunner } from '../../infra/database/database.service';
import { projectSettingSubquery } from '../../projects/projects.queries';
import type { AnnouncementStyle, EntryAudience, EntryCategory } from '../entities/changelog-entry.entity';
import type { LabelColour } from '../entities/changelog-label.entity';
import { containsPattern, readerEntryCondition } from '../shared/public-set';
import { type ReactionName, reactionSetOf } from '../shared/reaction-set';

/** Who reads, as the statements need it: a verified user id, and the reaction owner key. */
export interface ReaderKeys {
  /** A verified user id, else null. */
  userId: string | null;
  /** `u:<user id>` or `c:<client id>`, else null. */
  reactor: string | null;
}

export interface WidgetEntryRow {
  id: string;
  title: string;
  bodyMarkdown: string;
  version: string | null;
  category: EntryCategory;
  publishedAt: Date;
  updatedAt: Date;
  pinned: boolean;
  audience: EntryAudience;
  coverImageUrl: string | null;
  ctaLabel: string | null;
  ctaUrl: string | null;
  labels: { slug: string; name: string; colour: LabelColour }[];
  reactionCounts: Partial<Record<ReactionName, number>>;
  myReaction: ReactionName | null;
  seen: boolean | null;
  announcementStyle: AnnouncementStyle | null;
  announcementUntil: Date | null;
}

interface WidgetPageFilter {
  now: Date;
  label: string | null;
  q: string | null;
  category: EntryCategory | null;
  /** The last entry of the previous page; null on the first page (which also lists pinned entries). */
  after: { publishedAt: Date; id: string } | null;
  limit: number;
  /** Unseen entries are those published after this (the unseen window, or `since`). */
  unseenAfter: Date;
}

interface WidgetPage {
  /** Pinned entries, newest first; on the first page only. */
  pinned: WidgetEntryRow[];
  /** Unpinned entries, newest first, and one more when another page exists. */
  page: WidgetEntryRow[];
  labels: { slug: string; name: string; colour: LabelColour }[];
  announcement: WidgetEntryRow | null;
  /** Ids of unseen entries (at most 100), for a verified user; null otherwise. */
  unseenIds: string[] | null;
  /** The project's reaction set, read fresh (the project on a request may be seconds old). */
  reactionSet: ReactionName[];
}

const REACTION_SET = projectSettingSubquery('changelog_reaction_set', '$1');

// The most pinned entries a widget lists; owners pin a handful.
const MAX_PINNED = 50;
const MAX_UNSEEN = 100;

// Parameters shared by every statement here: $1 project, $2 now, $3 verified user id, $4 reactor.
const VISIBLE = readerEntryCondition('$2', '$1', '$3');

const ENTRY_COLUMNS = `e.id, e.title, e.body_markdown, e.version, e.category, e.published_at, e.updated_at, e.pinned, e.audience,
  e.cover_image_url, e.cta_label, e.cta_url, e.announcement_style, e.announcement_until,
  (SELECT coalesce(json_agg(json_build_object('slug', l.slug, 'name', l.name, 'colour', l.colour) ORDER BY l.name, l.slug), '[]')
     FROM changelog_entry_labels el JOIN changelog_labels l ON l.id = el.label_id WHERE el.entry_id = e.id) AS labels,
  (SELECT coalesce(json_object_agg(rc.reaction, rc.count), '{}') FROM changelog_reaction_counts rc
     WHERE rc.entry_id = e.id AND rc.count > 0) AS reaction_counts,
  (SELECT r.reaction FROM changelog_reactions r WHERE r.entry_id = e.id AND r.reactor = $4::varchar) AS my_reaction,
  CASE WHEN $3::varchar IS NULL THEN NULL
    ELSE EXISTS (SELECT 1 FROM changelog_readers cr WHERE cr.entry_id = e.id AND cr.user_id = $3::varchar) END AS seen`;

const UNSEEN_IDS = (after: string) => `CASE WHEN $3::varchar IS NULL THEN NULL ELSE (
  SELECT coalesce(json_agg(u.id), '[]') FROM (
    SELECT e.id FROM changelog_entries e
    WHERE e.project_id = $1 AND ${VISIBLE} AND e.published_at > ${after}
      AND NOT EXISTS (SELECT 1 FROM changelog_readers cr WHERE cr.entry_id = e.id AND cr.user_id = $3::varchar)
    ORDER BY e.published_at DESC LIMIT ${MAX_UNSEEN}) u) END`;

const ANNOUNCEMENT = `(SELECT row_to_json(a) FROM (
  SELECT ${ENTRY_COLUMNS} FROM changelog_entries e
  WHERE e.project_id = $1 AND e.announcement_style IS NOT NULL AND (e.announcement_until IS NULL OR e.announcement_until > $2)
    AND ${VISIBLE}
    AND NOT ($3::varchar IS NOT NULL AND EXISTS (SELECT 1 FROM changelog_readers cr WHERE cr.entry_id = e.id AND cr.user_id = $3::varchar))
  LIMIT 1) a)`;

/**
 * The widget's list answer in one statement: the reader's page of entries (pinned ones on the first
 * page), each with labels, reaction counts, the reader's reaction and whether they saw it; plus the
 * labels in use, the announcement and the unseen ids. The reader's visible set is decided once, in a
 * materialized CTE of ids and sort keys (the audience rule and the segment function run once per
 * entry), and the wide entry columns are read only for the rows picked: the statement stays small
 * to plan and cheap to run. Raw SQL for the same reasons as the public set. Its text is fixed, so
 * the caller sends it as a named statement (Database.preparedReads): planned once per connection.
 */
export async function readWidgetPage(
  em: StatementRunner,
  projectId: string,
  reader: ReaderKeys,
  filter: WidgetPageFilter,
): Promise<WidgetPage> {
  const sql = `WITH v AS MATERIALIZED (
      SELECT e.id, e.pinned, e.published_at,
        e.announcement_style IS NOT NULL AND (e.announcement_until IS NULL OR e.announcement_until > $2) AS announced,
        ($5::text IS NULL OR EXISTS (SELECT 1 FROM changelog_entry_labels el JOIN changelog_labels l ON l.id = el.label_id
                                      WHERE el.entry_id = e.id AND l.project_id = $1 AND l.slug = $5))
          AND ($6::text IS NULL OR e.title ILIKE $6 OR e.body_markdown ILIKE $6)
          AND ($7::text IS NULL OR e.category = $7) AS matches
      FROM changelog_entries e WHERE e.project_id = $1 AND ${VISIBLE}
    ), picked AS (
      (SELECT id, 'pinned' AS part FROM v WHERE $11 AND pinned AND matches ORDER BY published_at DESC, id DESC LIMIT ${MAX_PINNED})
      UNION ALL
      (SELECT id, 'page' FROM v WHERE NOT pinned AND matches
         AND ($8::timestamptz IS NULL OR (published_at, id) < ($8::timestamptz, $9::varchar))
       ORDER BY published_at DESC, id DESC LIMIT $10)
      UNION ALL
      (SELECT id, 'announcement' FROM v WHERE announced
         AND NOT ($3::varchar IS NOT NULL AND EXISTS (SELECT 1 FROM changelog_readers cr WHERE cr.entry_id = v.id AND cr.user_id = $3::varchar))
       LIMIT 1)
    )
    SELECT ctx.*, page.*
    FROM (SELECT
      (SELECT coalesce(json_agg(json_build_object('slug', l.slug, 'name', l.name, 'colour', l.colour) ORDER BY l.name, l.slug), '[]')
         FROM changelog_labels l WHERE l.project_id = $1
           AND EXISTS (SELECT 1 FROM changelog_entry_labels el JOIN v ON v.id = el.entry_id WHERE el.label_id = l.id)) AS ctx_labels,
      CASE WHEN $3::varchar IS NULL THEN NULL ELSE (
        SELECT coalesce(json_agg(u.id), '[]') FROM (
          SELECT v.id FROM v WHERE v.published_at > $12
            AND NOT EXISTS (SELECT 1 FROM changelog_readers cr WHERE cr.entry_id = v.id AND cr.user_id = $3::varchar)
          ORDER BY v.published_at DESC LIMIT ${MAX_UNSEEN}) u) END AS ctx_unseen_ids,
      ${REACTION_SET} AS ctx_reaction_set) ctx
    LEFT JOIN LATERAL (SELECT picked.part, ${ENTRY_COLUMNS} FROM picked JOIN changelog_entries e ON e.id = picked.id) page ON true
    ORDER BY page.pinned DESC, page.published_at DESC, page.id DESC`;
  const rows: Record<string, unknown>[] = await em.query(sql, [
    projectId,
    filter.now,
    reader.userId,
    reader.reactor,
    filter.label,
    filter.q ? containsPattern(filter.q) : null,
    filter.category,
    filter.after?.publishedAt ?? null,
    filter.after?.id ?? null,
    filter.limit + 1,
    filter.after === null,
    filter.unseenAfter,
  ]);
  const first = rows[0];
  const part = (name: string) => rows.filter((row) => row.part === name).map(toWidgetEntryRow);
  return {
    pinned: part('pinned'),
    page: part('page'),
    labels: first.ctx_labels as WidgetPage['labels'],
    announcement: part('announcement')[0] ?? null,
    unseenIds: first.ctx_unseen_ids as string[] | null,
    reactionSet: reactionSetOf({ changelog_reaction_set: (first.ctx_reaction_set as ReactionName[] | null) ?? undefined }),
  };
}

/** Ids of the entries a verified user has not been shown (at most 100). */
export async function readUnseenIds(em: StatementRunner, projectId: string, userId: string, now: Date, after: Date): Promise<string[]> {
  const [row]: { ids: string[] }[] = await em.query(`SELECT ${UNSEEN_IDS('$4')} AS ids`, [projectId, now, userId, after]);
  return row.ids;
}

/** How many entries an anonymous reader may see that were published after `after` (at most 100). */
export async function countPublishedSince(em: StatementRunner, projectId: string, now: Date, after: Date): Promise<number> {
  const [row]: { count: number }[] = await em.query(
    `SELECT count(*)::int AS count FROM (SELECT 1 FROM changelog_entries e
       WHERE e.project_id = $1 AND ${VISIBLE} AND e.published_at > $4 LIMIT ${MAX_UNSEEN}) u`,
    [projectId, now, null, after],
  );
  return row.count;
}

/** The announcement this reader gets now, if any, and the reaction set to show it with. */
export async function readAnnouncement(
  em: StatementRunner,
  projectId: string,
  reader: ReaderKeys,
  now: Date,
): Promise<{ announcement: WidgetEntryRow | null; reactionSet: ReactionName[] }> {
  const [row]: { a: Record<string, unknown> | null; reaction_set: ReactionName[] | null }[] = await em.query(
    `SELECT ${ANNOUNCEMENT} AS a, ${REACTION_SET} AS reaction_set`,
    [projectId, now, reader.userId, reader.reactor],
  );
  return {
    announcement: row.a ? toWidgetEntryRow(row.a) : null,
    reactionSet: reactionSetOf({ changelog_reaction_set: row.reaction_set ?? undefined }),
  };
}

/** Which of `entryIds` this reader may see now. */
export async function visibleEntryIds(
  em: EntityManager,
  projectId: string,
  userId: string | null,
  entryIds: readonly string[],
  now: Date,
): Promise<string[]> {
  const rows: { id: string }[] = await em.query(
    `SELECT e.id FROM changelog_entries e WHERE e.project_id = $1 AND e.id = ANY($4) AND ${VISIBLE}`,
    [projectId, now, userId, [...new Set(entryIds)]],
  );
  return rows.map((row) => row.id);
}

// JSON columns carry times as strings; plain columns as Dates.
const timeOf = (value: unknown): Date => (value instanceof Date ? value : new Date(value as string));

function toWidgetEntryRow(row: Record<string, unknown>): WidgetEntryRow {
  return {
    id: row.id as string,
    title: row.title as string,
    bodyMarkdown: row.body_markdown as string,
    version: row.version as string | null,
    category: row.category as EntryCategory,
    publishedAt: timeOf(row.published_at),
    updatedAt: timeOf(row.updated_at),
    pinned: row.pinned as boolean,
    audience: row.audience as EntryAudience,
    coverImageUrl: row.cover_image_url as string | null,
    ctaLabel: row.cta_label as string | null,
    ctaUrl: row.cta_url as string | null,
    labels: row.labels as WidgetEntryRow['labels'],
    reactionCounts: row.reaction_counts as WidgetEntryRow['reactionCounts'],
    myReaction: row.my_reaction as ReactionName | null,
    seen: row.seen as boolean | null,
    announcementStyle: row.announcement_style as AnnouncementStyle | null,
    announcementUntil: row.announcement_until === null ? null : timeOf(row.announcement_until),
  };
}
