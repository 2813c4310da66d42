import { createHash } from 'node:crypto';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AdjustableClock } from '../../src/common/clock/clock';
import { BellStateCache } from '../../src/notifications/bell/bell-state.cache';
import { NotificationRetention } from '../../src/notifications/retention/notification-retention.service';
import { ApiClient } from '../support/api-client';
import { userHashOf } from '../support/notification-seed';
import { ChangeNotifications } from '../../src/infra/database/change-notifications.service';
import { startPeerApp, statementsDuring, untilListening } from '../support/peer-app';
import { SeededProject, TestApp } from '../support/test-app';

/**
 * The bell's badge from each process's copy (notifications/bell/bell-state.cache.ts), on two API
 * processes on one database: A (the test app, with the workers) and B (a second app on A's
 * database). An unchanged poll runs no SQL on either; after every kind of change, the next poll on
 * either is exact: a change's answer comes once B has applied it, so B is asked at once. The
 * embedded database serves one process, so there only A runs.
 */
const realPostgres = Boolean(process.env.DATABASE_URL);
const DAY = 86_400_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('The bell badge from each process’s copy', () => {
  let a: TestApp;
  let b: NestExpressApplication | null = null;
  const bClock = new AdjustableClock();
  let p: SeededProject;
  let secret: string;

  beforeAll(async () => {
    a = await TestApp.start();
    if (realPostgres) b = await startPeerApp(a, bClock);
    p = await a.seedProject({ plan: 'builder' });
    secret = (await a.api.as(p.secretKey).post('/v1/notifications/signing-secret').expect(201)).body.data.signing_secret;
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  const apps = () => [
    { name: 'A', api: a.api, cache: a.get(BellStateCache) },
    ...(b ? [{ name: 'B', api: new ApiClient(b.getHttpServer()), cache: b.get(BellStateCache) }] : []),
  ];
  const bothApps = () => [a, ...(b ? [b] : [])];
  /** Statements on the bell's tables while `work` runs, on either process. */
  const bellStatementsDuring = async (work: () => Promise<unknown>) =>
    (await statementsDuring(bothApps(), work)).filter((sql) => sql.includes('notification')).length;
  const advance = (ms: number) => {
    a.clock.advance(ms);
    bClock.advance(ms);
  };

  const poll = (api: ApiClient, userId: string, path = '/v1/notifications/unread/count') =>
    api.as(p.publishableKey).get(`${path}?user_id=${userId}`).set('X-Service-User-Hash', userHashOf(userId, secret));

  async function badge(api: ApiClient, userId: string): Promise<number> {
    return (await poll(api, userId).expect(200)).body.data.unread_count;
  }

  /** Every process holds a copy of these people's bells. */
  async function warm(...userIds: string[]): Promise<void> {
    // A listener that has just put LISTEN in place drops every copy (it may have missed changes).
    await untilListening(bothApps());
    for (const { api, cache } of apps()) {
      for (const userId of userIds) {
        for (let tries = 0; ; tries += 1) {
          await badge(api, userId);
          if (cache.peek(p.project.id, userId, clockOf(cache).getTime()) || tries > 100) break;
          // The listener clears every copy once LISTEN is in place: ask again until the copy stays.
          await sleep(20);
        }
        expect(cache.peek(p.project.id, userId, clockOf(cache).getTime())).toBeDefined();
      }
    }
  }

  const clockOf = (cache: BellStateCache) => (cache === a.get(BellStateCache) ? a.clock.now() : bClock.now());

  /** Both processes answer `expected` for each person, at once. */
  async function expectBadges(expected: Record<string, number>): Promise<void> {
    for (const { name, api } of apps()) {
      const got: Record<string, number> = {};
      for (const userId of Object.keys(expected)) got[userId] = await badge(api, userId);
      expect({ process: name, ...got }).toEqual({ process: name, ...expected });
    }
  }

  it('answers an unchanged poll from the copy, without SQL, on every process; a conditional poll is 304', async () => {
    await a.api.as(p.secretKey).post('/v1/notifications').send({ user_id: 'ivy', title: 'Hi', body: 'One' }).expect(201);
    await warm('ivy');
    const statements = await bellStatementsDuring(async () => {
      for (const { api } of apps()) {
        for (let n = 0; n < 5; n += 1) expect(await badge(api, 'ivy')).toBe(1);
      }
    });
    expect(statements).toBe(0);
    for (const { api } of apps()) {
      const first = await poll(api, 'ivy').expect(200);
      const tag = first.headers.etag as string;
      expect(tag).toMatch(/^W\/"/);
      const again = await bellStatementsDuring(() => poll(api, 'ivy').set('If-None-Match', tag).expect(304));
      expect(again).toBe(0);
    }
  });

  it('sees every kind of write on the next poll of either process', async () => {
    const secretApi = a.api.as(p.secretKey);
    await warm('ada', 'bob');
    await expectBadges({ ada: 0, bob: 0 });

    const toAda = await secretApi.post('/v1/notifications').send({ user_id: 'ada', title: 'Yours', body: 'Only Ada' }).expect(201);
    await expectBadges({ ada: 1, bob: 0 });

    const everyone = await secretApi
      .post('/v1/notifications')
      .send({ audience: 'all', title: 'All', body: 'Everyone', reactions: true })
      .expect(201);
    await expectBadges({ ada: 2, bob: 1 });

    await secretApi
      .post('/v1/notifications')
      .send({ user_ids: ['ada', 'bob'], title: 'Both', body: 'Group' })
      .expect(201);
    await expectBadges({ ada: 3, bob: 2 });

    // Bob's own writes, made on B when there is a B: his badge moves, Ada's does not.
    const bobApi = apps()[apps().length - 1].api;
    await bobApi
      .as(p.publishableKey)
      .patch(`/v1/notifications/${everyone.body.data.id}/read`)
      .send({ user_id: 'bob', user_hash: userHashOf('bob', secret) })
      .expect(200);
    await expectBadges({ ada: 3, bob: 1 });

    await a.api
      .as(p.publishableKey)
      .post(`/v1/notifications/${everyone.body.data.id}/reactions`)
      .send({ user_id: 'ada', user_hash: userHashOf('ada', secret), reaction: 'like' })
      .expect(200);
    await expectBadges({ ada: 2, bob: 1 });

    await a.api
      .as(p.publishableKey)
      .patch(`/v1/notifications/${toAda.body.data.id}/archive`)
      .send({ user_id: 'ada', user_hash: userHashOf('ada', secret) })
      .expect(200);
    await expectBadges({ ada: 1, bob: 1 });

    await a.api
      .as(p.publishableKey)
      .patch('/v1/notifications/read-all')
      .send({ user_id: 'bob', user_hash: userHashOf('bob', secret) })
      .expect(200);
    await expectBadges({ ada: 1, bob: 0 });

    // A new broadcast, then its deletion.
    const oops = await secretApi.post('/v1/notifications').send({ audience: 'all', title: 'Oops', body: 'Wrong' }).expect(201);
    await expectBadges({ ada: 2, bob: 1 });
    await secretApi.delete(`/v1/notifications/${oops.body.data.id}`).expect(200);
    await expectBadges({ ada: 1, bob: 0 });

    // A changelog entry published with notify_in_app reaches every bell.
    const entry = await secretApi
      .post('/v1/changelog/entries')
      .send({ title: 'Dark mode', body_markdown: 'Now dark.', category: 'feature', notify_in_app: true });
    expect(entry.body.error).toBeNull();
    await expectBadges({ ada: 2, bob: 1 });

    // The contact's erasure takes Ada's bell rows: her targeted notifications and her receipts go,
    // so after reading everything she sees the project's two broadcasts unread again.
    await a.api
      .as(p.publishableKey)
      .patch('/v1/notifications/read-all')
      .send({ user_id: 'ada', user_hash: userHashOf('ada', secret) })
      .expect(200);
    await expectBadges({ ada: 0, bob: 1 });
    const contact = await secretApi.post('/v1/analytics/identify').send({ user_id: 'ada', email: 'ada@example.com' }).expect(200);
    await secretApi.delete(`/v1/contacts/${contact.body.data.id}`).expect(200);
    await expectBadges({ ada: 2, bob: 1 });
  });

  it('shows a scheduled notification at its time, and lets a broadcast leave after 30 days, without any write', async () => {
    const secretApi = a.api.as(p.secretKey);
    const now = a.clock.now().getTime();
    await secretApi
      .post('/v1/notifications')
      .send({ user_id: 'cy', title: 'Later', body: 'Scheduled', send_at: new Date(now + 120_000).toISOString() })
      .expect(201);
    await warm('cy');
    const before = await badge(a.api, 'cy');
    await expectBadges({ cy: before });
    // No write at its time: the release job is not run here, and the bell shows it anyway.
    advance(119_000);
    await expectBadges({ cy: before });
    advance(1_000);
    await expectBadges({ cy: before + 1 });

    // Every unpinned broadcast of the earlier tests leaves the bell 30 days after it showed.
    advance(30 * DAY);
    await expectBadges({ cy: 1 });

    // Retention, 90 days on, deletes the targeted one: a write the bells hear of.
    await warm('cy');
    advance(61 * DAY);
    await expectBadges({ cy: 1 });
    await a.get(NotificationRetention).purgeExpired();
    await expectBadges({ cy: 0 });
  });

  it('answers a list poll naming the tag of an unchanged bell 304 without SQL, and a changed one 200 with a new tag', async () => {
    const secretApi = a.api.as(p.secretKey);
    await secretApi.post('/v1/notifications').send({ user_id: 'dee', title: 'One', body: 'First' }).expect(201);
    for (const path of ['/v1/notifications/inbox', '/v1/notifications/unread']) {
      const first = await poll(a.api, 'dee', path).expect(200);
      const tag = first.headers.etag as string;
      expect(first.body.data).toHaveLength(1);
      const statements = await bellStatementsDuring(() => poll(a.api, 'dee', path).set('If-None-Match', tag).expect(304));
      expect(statements).toBe(0);
      // Another query of the same bell is another answer: it does not match the tag.
      const filtered = await poll(a.api, 'dee', path).query({ category: 'billing' }).set('If-None-Match', tag).expect(200);
      expect(filtered.body.data).toEqual([]);
    }
    const held = (await poll(a.api, 'dee', '/v1/notifications/inbox').expect(200)).headers.etag as string;
    await secretApi.post('/v1/notifications').send({ user_id: 'dee', title: 'Two', body: 'Second' }).expect(201);
    const changed = await poll(a.api, 'dee', '/v1/notifications/inbox').set('If-None-Match', held).expect(200);
    expect(changed.body.data.map((n: { title: string }) => n.title)).toEqual(['Two', 'One']);
    expect(changed.headers.etag).not.toBe(held);
    if (b) {
      // Equal answers carry equal tags on every process: B answers A's tag 304 (after its query).
      const onB = new ApiClient(b.getHttpServer());
      await poll(onB, 'dee', '/v1/notifications/inbox')
        .set('If-None-Match', changed.headers.etag as string)
        .expect(304);
    }
  });

  it('tags the badge by its answer: one tag on every process, a new one once the count changes', async () => {
    const secretApi = a.api.as(p.secretKey);
    await warm('gus');
    const first = await poll(a.api, 'gus').expect(200);
    const tag = first.headers.etag as string;
    expect(first.body.data).toEqual({ unread_count: 0 });
    // The tag names the envelope's bytes (SHA-1 of its JSON), so every process gives the same one.
    expect(tag).toBe(`W/"${createHash('sha1').update(first.text).digest('base64url')}"`);
    for (const api of b ? [a.api, new ApiClient(b.getHttpServer())] : [a.api]) {
      const statements = await bellStatementsDuring(() => poll(api, 'gus').set('If-None-Match', tag).expect(304));
      expect(statements).toBe(0);
      expect((await poll(api, 'gus').set('If-None-Match', tag).expect(304)).headers.etag).toBe(tag);
    }
    await secretApi.post('/v1/notifications').send({ user_id: 'gus', title: 'One', body: 'First' }).expect(201);
    for (const api of b ? [a.api, new ApiClient(b.getHttpServer())] : [a.api]) {
      const changed = await poll(api, 'gus').set('If-None-Match', tag).expect(200);
      expect(changed.body.data).toEqual({ unread_count: 1 });
      expect(changed.headers.etag).not.toBe(tag);
      await poll(api, 'gus')
        .set('If-None-Match', changed.headers.etag as string)
        .expect(304);
    }
  });

  (realPostgres ? it : it.skip)('keeps no copy while its change listener is down: every poll then reads the count', async () => {
    await a.api.as(p.secretKey).post('/v1/notifications').send({ user_id: 'eli', title: 'Hi', body: 'One' }).expect(201);
    const onB = new ApiClient(b!.getHttpServer());
    await badge(onB, 'eli');
    // B's listener is gone for good (as while it reconnects): a change elsewhere could go unheard.
    await b!.get(ChangeNotifications).onModuleDestroy();
    expect(b!.get(ChangeNotifications).isListening).toBe(false);
    const statements = await bellStatementsDuring(async () => {
      for (let n = 0; n < 3; n += 1) expect(await badge(onB, 'eli')).toBe(1);
    });
    expect({ statements }).toEqual({ statements: 3 });
  });
});
