import { EngagementFlusher } from '../../src/changelog/engagement/engagement-flusher.service';
import { EngagementRedisBuffer } from '../../src/changelog/engagement/engagement-redis-buffer.service';
import { RateLimiter } from '../../src/infra/rate-limit/rate-limiter.service';
import { DataSource } from 'typeorm';
import { FaultApp, eventually, startFaultApp } from './fault-app';

/**
 * Redis behind a TCP proxy that goes silent, then refuses connections. Browser calls keep working:
 * the per-IP limit counts in memory meanwhile, and the after-commit enqueue gives up quickly (the
 * row stays due for the sweeper). Runs where REDIS_URL is set (CI sets it).
 */
const describeWithRedis = process.env.REDIS_URL ? describe : describe.skip;

describeWithRedis('Redis outage', () => {
  let f: FaultApp;

  beforeAll(async () => {
    f = await startFaultApp('redis');
  });
  afterAll(() => f.close());

  let signedUp = 0;
  const signUp = async (email: string) => {
    const res = await f.api.as(f.publishableKey).post('/v1/waitlist/signups').send({ email });
    if (res.status === 201) signedUp += 1;
    return res;
  };
  const timedSignUp = async (email: string) => {
    const started = Date.now();
    const res = await signUp(email);
    return { res, ms: Date.now() - started };
  };
  /**
   * Browser signups until the limiter has fallen back to memory: the first calls of an address are
   * allowed from the hits the process already took from Redis (its lease, at most 8), so they do
   * not notice Redis is away; the call after them does, and must not wait long either.
   */
  const signUpUntilCountedInMemory = async (label: string) => {
    const limiter = f.app.get(RateLimiter);
    for (let i = 0; i < 10 && limiter.store !== 'memory'; i += 1) {
      const { res, ms } = await timedSignUp(`${label}${i}@x.io`);
      expect(res.status).toBe(201);
      expect(res.headers['x-ratelimit-limit']).toBe('120');
      expect(ms).toBeLessThan(3_000);
    }
    expect(limiter.store).toBe('memory');
  };

  it('keeps answering browser signups while Redis is silent, with the limit counted in memory', async () => {
    const limiter = f.app.get(RateLimiter);
    expect(limiter.store).toBe('redis');
    expect((await signUp('before@x.io')).status).toBe(201);

    f.proxy.pause();
    await signUpUntilCountedInMemory('silent');
    const { res } = await timedSignUp('silent-after@x.io');
    expect(res.status).toBe(201);

    f.proxy.resume();
    await eventually(() => Promise.resolve(limiter.store === 'redis'), 5_000);
    expect((await signUp('after@x.io')).status).toBe(201);
  });

  it('keeps answering while Redis refuses connections, and shares counters again once it is back', async () => {
    const limiter = f.app.get(RateLimiter);
    await f.proxy.close();
    await signUpUntilCountedInMemory('refused');
    await f.proxy.reopen();
    await eventually(() => Promise.resolve(limiter.store === 'redis'), 10_000);
    expect((await signUp('back@x.io')).status).toBe(201);
    const listed = await f.api.as(f.secretKey).get('/v1/waitlist/signups?limit=100').expect(200);
    expect(listed.body.data).toHaveLength(signedUp);
  });

  it('keeps counting widget views while Redis is away: they are buffered in the database and none is lost', async () => {
    const buffer = f.app.get(EngagementRedisBuffer);
    const created = await f.api
      .as(f.secretKey)
      .post('/v1/changelog/entries')
      .send({ title: 'Counted', body_markdown: 'Something changed.', category: 'feature' })
      .expect(201);
    const entryId = created.body.data.id as string;
    const view = async () => {
      const started = Date.now();
      await f.api
        .as(f.publishableKey)
        .post('/v1/changelog/widget/seen')
        .send({ entry_ids: [entryId] })
        .expect(200);
      return Date.now() - started;
    };
    const widgetViews = async () => {
      await f.app.get(EngagementFlusher).flush();
      const [row] = await f.app
        .get(DataSource)
        .query('SELECT coalesce(sum(widget_views), 0)::int AS views FROM changelog_entry_counts WHERE entry_id = $1', [entryId]);
      return row.views as number;
    };

    await f.proxy.close();
    await eventually(() => Promise.resolve(!buffer.ready), 5_000);
    for (let i = 0; i < 3; i += 1) expect(await view()).toBeLessThan(1_000);
    expect(await widgetViews()).toBe(3);

    await f.proxy.reopen();
    await eventually(() => Promise.resolve(buffer.ready), 10_000);
    for (let i = 0; i < 2; i += 1) await view();
    expect(await widgetViews()).toBe(5);
  });
});
