import type { NestExpressApplication } from '@nestjs/platform-express';
import { randomBytes } from 'node:crypto';
import { createHttpApp } from '../../src/bootstrap';
import { CHANGELOG_PUBLICATIONS, EntryPublishing } from '../../src/changelog/entries/entry-publishing.service';
import { ChangelogEntryEntity } from '../../src/changelog/entities/changelog-entry.entity';
import { ChangelogPublicationEntity } from '../../src/changelog/entities/changelog-publication.entity';
import { AdjustableClock } from '../../src/common/clock/clock';
import { loadConfig, withDatabaseUrl } from '../../src/config/app-config';
import { EventEntity } from '../../src/events/entities/event.entity';
import { Database } from '../../src/infra/database/database.service';
import { DueRows } from '../../src/infra/queue/due-rows.service';
import { Sweeper } from '../../src/infra/queue/sweeper.service';
import { ApiClient } from '../support/api-client';
import { TestApp } from '../support/test-app';
import { deleteRedisKeysAtFileEnd } from '../support/redis-keys';

const BASE = { title: 'Scheduled', body_markdown: 'Goes live later.', category: 'feature' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

const publishedEvents = (db: Database, entryId: string) =>
  db.manager
    .createQueryBuilder(EventEntity, 'e')
    .where("e.type = 'changelog.entry.published'")
    .andWhere(`e.data ->> 'entry_id' = :entryId`, { entryId })
    .getCount();

describe('scheduled publishing', () => {
  describe('with workers', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await TestApp.start();
    });
    afterAll(() => t.close());

    it('publishes within seconds of scheduled_at through the delayed job, once', async () => {
      const { secretKey } = await t.seedProject({ plan: 'indie' });
      const at = new Date(Date.now() + 1_500);
      const created = await t.api
        .as(secretKey)
        .post('/v1/changelog/entries')
        .send({ ...BASE, scheduled_at: at.toISOString() })
        .expect(201);
      const id = created.body.data.id;
      const entry = await until(
        () => t.db.manager.findOneByOrFail(ChangelogEntryEntity, { id }),
        (row) => row.status === 'published',
        'the entry to publish',
      );
      const lateBy = (entry.publishedAt as Date).getTime() - at.getTime();
      expect(lateBy).toBeGreaterThanOrEqual(0);
      expect(lateBy).toBeLessThan(3_000);
      expect(await publishedEvents(t.db, id)).toBe(1);
      // The row's outcome is written once the attempt's transaction has committed, a moment after
      // the entry shows as published.
      const publication = await until(
        () => t.db.manager.findOneByOrFail(ChangelogPublicationEntity, { entryId: id }),
        (row) => row.status !== 'pending',
        'the publication row to record its outcome',
      );
      expect(publication).toMatchObject({ status: 'published', attempts: 1 });
    });
  });

  describe('driven by hand', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await TestApp.start({ env: { WORKERS: 'off' } });
    });
    afterAll(() => t.close());
    afterEach(() => t.clock.reset());

    const schedule = async (secretKey: string, inMs = 60_000) => {
      const at = new Date(t.clock.now().getTime() + inMs).toISOString();
      const res = await t.api
        .as(secretKey)
        .post('/v1/changelog/entries')
        .send({ ...BASE, scheduled_at: at })
        .expect(201);
      return res.body.data.id as string;
    };
    const rowsOf = (entryId: string) => t.db.manager.find(ChangelogPublicationEntity, { where: { entryId }, order: { createdAt: 'ASC' } });

    it('publishes exactly once when two workers race for the row', async () => {
      const { secretKey } = await t.seedProject({ plan: 'indie' });
      const id = await schedule(secretKey);
      const [row] = await rowsOf(id);
      const publishing = t.get(EntryPublishing);
      expect(await t.get(DueRows).findDue(CHANGELOG_PUBLICATIONS)).not.toContain(row.id);
      t.clock.advance(61_000);
      await Promise.all([publishing.publishScheduled({ id: row.id }), publishing.publishScheduled({ id: row.id })]);
      expect(await t.db.manager.findOneByOrFail(ChangelogEntryEntity, { id })).toMatchObject({ status: 'published' });
      expect(await publishedEvents(t.db, id)).toBe(1);
      expect(await rowsOf(id)).toEqual([expect.objectContaining({ status: 'published', attempts: 1 })]);
      await publishing.publishScheduled({ id: row.id });
      expect(await publishedEvents(t.db, id)).toBe(1);
    });

    it('skips a row whose entry was rescheduled, published by hand or archived', async () => {
      const { secretKey } = await t.seedProject({ plan: 'indie' });
      const api = t.api.as(secretKey);
      const rescheduled = await schedule(secretKey);
      const later = new Date(t.clock.now().getTime() + 120_000).toISOString();
      await api.patch(`/v1/changelog/entries/${rescheduled}`).send({ scheduled_at: later }).expect(200);
      const byHand = await schedule(secretKey);
      await api.patch(`/v1/changelog/entries/${byHand}`).send({ status: 'published' }).expect(200);
      const archived = await schedule(secretKey);
      await api.post(`/v1/changelog/entries/${archived}/archive`).expect(200);

      t.clock.advance(61_000);
      const publishing = t.get(EntryPublishing);
      for (const id of [rescheduled, byHand, archived]) {
        const [first] = await rowsOf(id);
        await publishing.publishScheduled({ id: first.id });
        expect((await rowsOf(id))[0].status).toBe('skipped');
      }
      expect(await t.db.manager.findOneByOrFail(ChangelogEntryEntity, { id: rescheduled })).toMatchObject({ status: 'scheduled' });
      expect(await t.db.manager.findOneByOrFail(ChangelogEntryEntity, { id: archived })).toMatchObject({ status: 'archived' });
      expect(await publishedEvents(t.db, byHand)).toBe(1);

      t.clock.advance(60_000);
      const [, second] = await rowsOf(rescheduled);
      await publishing.publishScheduled({ id: second.id });
      expect(await t.db.manager.findOneByOrFail(ChangelogEntryEntity, { id: rescheduled })).toMatchObject({ status: 'published' });
    });

    // A second process needs a database of its own to share: the embedded one serves a single
    // session, which two applications' queue workers cannot share (CI runs this on PostgreSQL).
    (process.env.DATABASE_URL ? it : it.skip)('is published by the sweeper of a new process after a restart', async () => {
      const { secretKey } = await t.seedProject({ plan: 'indie' });
      // The first process schedules the entry, then stops before its time.
      const first = await startProcess(t, 'off');
      const at = new Date(Date.now() + 60_000).toISOString();
      const created = await first.api
        .as(secretKey)
        .post('/v1/changelog/entries')
        .send({ ...BASE, scheduled_at: at })
        .expect(201);
      const id = created.body.data.id;
      await first.app.close();

      // A new process on the same database, with a queue of its own (the first one's jobs are gone),
      // once the time has come: its sweeper finds the due row and publishes it.
      const second = await startProcess(t, 'on');
      try {
        second.clock.advance(61_000);
        await second.app.get(Sweeper).runOnce();
        const entry = await until(
          () => t.db.manager.findOneByOrFail(ChangelogEntryEntity, { id }),
          (row) => row.status === 'published',
          'the new process to publish',
        );
        expect(entry.publishedAt).not.toBeNull();
        expect(await publishedEvents(t.db, id)).toBe(1);
      } finally {
        await second.app.close();
      }
    });
  });
});

/** Another API-and-worker process on the test app's database (as after a deploy or a crash). */
async function startProcess(
  t: TestApp,
  workers: 'on' | 'off',
): Promise<{ app: NestExpressApplication; api: ApiClient; clock: AdjustableClock }> {
  const clock = new AdjustableClock();
  const env = {
    LOG_LEVEL: 'silent',
    WORKERS: workers,
    REDIS_URL: process.env.REDIS_URL,
    QUEUE_PREFIX: `t_${randomBytes(6).toString('hex')}`,
    PUBLIC_BASE_URL: 'https://launch.test',
    // A second process of the same deployment: the same key (a start with another one is refused).
    ENCRYPTION_KEY: t.config.encryptionKey!.toString('base64'),
  };
  deleteRedisKeysAtFileEnd(env.REDIS_URL, env.QUEUE_PREFIX);
  const app = await createHttpApp(withDatabaseUrl(loadConfig(env), t.config.databaseUrl!), { clock });
  return { app, api: new ApiClient(app.getHttpServer()), clock };
}
