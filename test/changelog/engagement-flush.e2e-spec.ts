import { addEntryCounts, claimEngagementBatch, moveCountDeltas } from '../../src/changelog/engagement/engagement.queries';
import { EngagementRedisBuffer } from '../../src/changelog/engagement/engagement-redis-buffer.service';
import { newId } from '../../src/common/ids/ids';
import { seedEntry } from '../support/changelog-seed';
import { entryCounts, flushEngagement } from '../support/engagement';
import { SeededProject, TestApp } from '../support/test-app';

// The buffer and its flush (EngagementRecorder, EngagementFlusher): what a flusher that dies
// mid-way leaves behind is added once, never twice.
describe('Engagement flush (e2e)', () => {
  let t: TestApp;
  let seeded: SeededProject;

  beforeAll(async () => {
    // No workers: only the test flushes, so it can stop a flush half-way.
    t = await TestApp.start({ env: { BROWSER_RATE_LIMIT: '100000', WORKERS: 'off' } });
    seeded = await t.seedProject({ plan: 'indie' });
  });
  afterAll(() => t.close());

  const view = (entryId: string) =>
    t.api
      .as(seeded.publishableKey)
      .post('/v1/changelog/widget/seen')
      .send({ entry_ids: [entryId] })
      .expect(200);

  const withRedis = process.env.REDIS_URL ? it : it.skip;

  withRedis('adds a batch whose flusher died after COMMIT once: the next flush only deletes it', async () => {
    const entry = await seedEntry(t, seeded.project.id);
    const buffer = t.app.get(EngagementRedisBuffer);
    for (let i = 0; i < 3; i += 1) await view(entry.id);

    // A flusher takes the batch and commits it, then dies before deleting it from Redis.
    const id = newId('ceb');
    expect(await buffer.take(id)).toBe(true);
    const batch = await buffer.read(id);
    await t.db.transaction(async (em) => {
      expect(await claimEngagementBatch(em, id, t.clock.now())).toBe(true);
      await addEntryCounts(em, batch.deltas);
    });
    expect(await buffer.batchIds()).toEqual([id]);

    await view(entry.id);
    expect(await entryCounts(t, entry.id)).toMatchObject({ widgetViews: 4 });
    expect(await buffer.batchIds()).toEqual([]);
  });

  withRedis('adds a batch whose flusher died before COMMIT with the next flush', async () => {
    const entry = await seedEntry(t, seeded.project.id);
    const buffer = t.app.get(EngagementRedisBuffer);
    for (let i = 0; i < 2; i += 1) await view(entry.id);
    // Taken (renamed out of the live hash), then nothing: the process died.
    expect(await buffer.take(newId('ceb'))).toBe(true);
    await view(entry.id);
    expect(await entryCounts(t, entry.id)).toMatchObject({ widgetViews: 3 });
    await flushEngagement(t);
    expect(await entryCounts(t, entry.id)).toMatchObject({ widgetViews: 3 });
  });

  it('moves buffered database rows once when flushers run side by side', async () => {
    const entry = await seedEntry(t, seeded.project.id);
    // Rows in the table, as a process without Redis (or with Redis down) leaves them.
    await t.db.manager.query(
      `INSERT INTO changelog_count_deltas (project_id, entry_id, day, widget_views, page_views, cta_clicks, anonymous_readers)
       SELECT $1, $2, $3, 1, 2, 1, 0 FROM generate_series(1, 40)`,
      [seeded.project.id, entry.id, t.clock.now().toISOString().slice(0, 10)],
    );
    const drain = async () => {
      while ((await moveCountDeltas(t.db.manager, 3)) > 0);
    };
    await Promise.all([drain(), drain(), drain(), flushEngagement(t)]);
    expect(await entryCounts(t, entry.id)).toEqual({ widgetViews: 40, pageViews: 80, ctaClicks: 40, anonymousReaders: 0 });
    const [left] = await t.db.manager.query(`SELECT count(*)::int AS count FROM changelog_count_deltas WHERE entry_id = $1`, [entry.id]);
    expect(left.count).toBe(0);
  });
});
