import type { EntityManager } from 'typeorm';

/** Counter deltas of one entry on one UTC day (`YYYY-MM-DD`). */
export interface CountDelta {
  projectId: string;
  entryId: string;
  day: string;
  widgetViews: number;
  pageViews: number;
  ctaClicks: number;
  anonymousReaders: number;
}

/** A signed-in person shown an entry, first at `at`. */
export interface ReadMark {
  projectId: string;
  entryId: string;
  userId: string;
  at: Date;
}

/**
 * Adds buffered deltas to the daily counter rows, one statement for any number of entries. Rows
 * are joined to their entries (an entry deleted meanwhile, or an id of another project, drops out)
 * and taken in key order, so two processes flushing the same rows cannot deadlock.
 */
export async function addEntryCounts(em: EntityManager, deltas: readonly CountDelta[]): Promise<void> {
  if (deltas.length === 0) return;
  await em.query(
    `INSERT INTO changelog_entry_counts AS c (entry_id, day, project_id, widget_views, page_views, cta_clicks, anonymous_readers)
     SELECT t.entry_id, t.day, e.project_id, t.widget_views, t.page_views, t.cta_clicks, t.anonymous_readers
     FROM unnest($1::varchar[], $2::date[], $3::varchar[], $4::int[], $5::int[], $6::int[], $7::int[])
       AS t(entry_id, day, project_id, widget_views, page_views, cta_clicks, anonymous_readers)
     JOIN changelog_entries e ON e.id = t.entry_id AND e.project_id = t.project_id
     ORDER BY t.entry_id, t.day
     ON CONFLICT (entry_id, day) DO UPDATE SET
       widget_views = c.widget_views + EXCLUDED.widget_views,
       page_views = c.page_views + EXCLUDED.page_views,
       cta_clicks = c.cta_clicks + EXCLUDED.cta_clicks,
       anonymous_readers = c.anonymous_readers + EXCLUDED.anonymous_readers`,
    [
      deltas.map((d) => d.entryId),
      deltas.map((d) => d.day),
      deltas.map((d) => d.projectId),
      deltas.map((d) => d.widgetViews),
      deltas.map((d) => d.pageViews),
      deltas.map((d) => d.ctaClicks),
      deltas.map((d) => d.anonymousReaders),
    ],
  );
}

/** Records first reads; a person already recorded for an entry keeps their first time. */
export async function addReaders(em: EntityManager, marks: readonly ReadMark[]): Promise<void> {
  if (marks.length === 0) return;
  await em.query(
    `INSERT INTO changelog_readers (entry_id, user_id, project_id, first_seen_at)
     SELECT t.entry_id, t.user_id, e.project_id, t.at
     FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::timestamptz[]) AS t(entry_id, user_id, project_id, at)
     JOIN changelog_entries e ON e.id = t.entry_id AND e.project_id = t.project_id
     ORDER BY t.entry_id, t.user_id
     ON CONFLICT (entry_id, user_id) DO NOTHING`,
    [marks.map((m) => m.entryId), marks.map((m) => m.userId), marks.map((m) => m.projectId), marks.map((m) => m.at)],
  );
}
