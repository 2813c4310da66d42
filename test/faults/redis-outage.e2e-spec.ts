import { RateLimiter } from '../../src/infra/rate-limit/rate-limiter';
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

  const signUp = (email: string) => f.api.as(f.publishableKey).post('/v1/waitlist/signups').send({ email });
  const timedSignUp = async (email: string) => {
    const started = Date.now();
    const res = await signUp(email);
    return { res, ms: Date.now() - started };
  };

  it('keeps answering browser signups while Redis is silent, with the limit counted in memory', async () => {
    const limiter = f.app.get(RateLimiter);
    expect(limiter.store).toBe('redis');
    await signUp('before@x.io').expect(201);

    f.proxy.pause();
    for (const email of ['silent1@x.io', 'silent2@x.io', 'silent3@x.io']) {
      const { res, ms } = await timedSignUp(email);
      expect(res.status).toBe(201);
      expect(res.headers['x-ratelimit-limit']).toBe('120');
      expect(ms).toBeLessThan(3_000);
    }
    expect(limiter.store).toBe('memory');

    f.proxy.resume();
    await eventually(() => Promise.resolve(limiter.store === 'redis'), 5_000);
    await signUp('after@x.io').expect(201);
  });

  it('keeps answering while Redis refuses connections, and shares counters again once it is back', async () => {
    const limiter = f.app.get(RateLimiter);
    await f.proxy.close();
    for (const email of ['refused1@x.io', 'refused2@x.io']) {
      const { res, ms } = await timedSignUp(email);
      expect(res.status).toBe(201);
      expect(ms).toBeLessThan(3_000);
    }
    expect(limiter.store).toBe('memory');
    await f.proxy.reopen();
    await eventually(() => Promise.resolve(limiter.store === 'redis'), 10_000);
    await signUp('back@x.io').expect(201);
    const listed = await f.api.as(f.secretKey).get('/v1/waitlist/signups?limit=100').expect(200);
    expect(listed.body.data).toHaveLength(8);
  });
});
