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

/**
 * Appends deltas to the buffer table (no Redis): one insert, no row contention, however hot the
 * entry. The flusher moves them into the daily counters.
 */
export async function appendCountDeltas(em: EntityManager, deltas: readonly CountDelta[]): Promise<void> {
  if (deltas.length === 0) return;
  await em.query(
    `INSERT INTO changelog_count_deltas (project_id, entry_id, day, widget_views, page_views, cta_clicks, anonymous_readers)
     SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::date[], $4::int[], $5::int[], $6::int[], $7::int[])`,
    [
      deltas.map((d) => d.projectId),
      deltas.map((d) => d.entryId),
      deltas.map((d) => d.day),
      deltas.map((d) => d.widgetViews),
      deltas.map((d) => d.pageViews),
      deltas.map((d) => d.ctaClicks),
      deltas.map((d) => d.anonymousReaders),
    ],
  );
}

/**
 * Moves up to `limit` buffered deltas into the daily counters in one statement: the rows it adds are
 * the rows it deletes, so a flusher that dies mid-way moved all of them or none, and two flushers
 * take disjoint rows (SKIP LOCKED). Raw SQL: a DELETE … RETURNING feeding an upsert. Returns how
 * many buffer rows it took.
 */
export async function moveCountDeltas(em: EntityManager, limit: number): Promise<number> {
  const rows: { moved: number }[] = await em.query(
    `WITH moved AS (
       DELETE FROM changelog_count_deltas
       WHERE id IN (SELECT id FROM changelog_count_deltas ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING entry_id, day, project_id, widget_views, page_views, cta_clicks, anonymous_readers
     ), summed AS (
       SELECT entry_id, day, project_id, sum(widget_views)::int AS widget_views, sum(page_views)::int AS page_views,
         sum(cta_clicks)::int AS cta_clicks, sum(anonymous_readers)::int AS anonymous_readers
       FROM moved GROUP BY entry_id, day, project_id
     ), added AS (
       INSERT INTO changelog_entry_counts AS c (entry_id, day, project_id, widget_views, page_views, cta_clicks, anonymous_readers)
       SELECT s.entry_id, s.day, e.project_id, s.widget_views, s.page_views, s.cta_clicks, s.anonymous_readers
       FROM summed s JOIN changelog_entries e ON e.id = s.entry_id AND e.project_id = s.project_id
       ORDER BY s.entry_id, s.day
       ON CONFLICT (entry_id, day) DO UPDATE SET
         widget_views = c.widget_views + EXCLUDED.widget_views,
         page_views = c.page_views + EXCLUDED.page_views,
         cta_clicks = c.cta_clicks + EXCLUDED.cta_clicks,
         anonymous_readers = c.anonymous_readers + EXCLUDED.anonymous_readers
       RETURNING 1
     )
     SELECT (SELECT count(*) FROM moved)::int AS moved, (SELECT count(*) FROM added)::int AS added`,
    [limit],
  );
  return rows[0].moved;
}

/**
 * Records that the batch `id` is being added, in the transaction that adds it. False when it was
 * added before (its flusher died before deleting it): it must not be added again. A concurrent
 * flusher of the same batch waits here on the primary key until the first commits, then gets false.
 */
export async function claimEngagementBatch(em: EntityManager, id: string, at: Date): Promise<boolean> {
  const rows: unknown[] = await em.query(
    `INSERT INTO changelog_engagement_batches (id, flushed_at) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING RETURNING id`,
    [id, at],
  );
  return rows.length > 0;
}

/** Forgets batches added before `before` (their Redis hashes are long gone). */
export async function forgetEngagementBatches(em: EntityManager, before: Date): Promise<void> {
  await em.query(`DELETE FROM changelog_engagement_batches WHERE flushed_at < $1`, [before]);
}
