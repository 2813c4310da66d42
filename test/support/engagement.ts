import { EngagementFlusher } from '../../src/changelog/engagement/engagement-flusher.service';
import type { TestApp } from './test-app';

export interface EntryCounts {
  widgetViews: number;
  pageViews: number;
  ctaClicks: number;
  anonymousReaders: number;
}

/** Adds the buffered engagement to the counters now, so a test reads the database as it will be. */
export function flushEngagement(t: TestApp): Promise<void> {
  return t.app.get(EngagementFlusher).flush();
}

/** An entry's counters summed over its days, after a flush. */
export async function entryCounts(t: TestApp, entryId: string): Promise<EntryCounts> {
  await flushEngagement(t);
  const [row]: EntryCounts[] = await t.db.manager.query(
    `SELECT coalesce(sum(widget_views), 0)::int AS "widgetViews", coalesce(sum(page_views), 0)::int AS "pageViews",
       coalesce(sum(cta_clicks), 0)::int AS "ctaClicks", coalesce(sum(anonymous_readers), 0)::int AS "anonymousReaders"
     FROM changelog_entry_counts WHERE entry_id = $1`,
    [entryId],
  );
  return row;
}
