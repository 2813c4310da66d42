import Redis from 'ioredis';
import { AdjustableClock } from '../../src/common/clock/clock';
import { ApiClient } from '../support/api-client';
import { startPeerApp } from '../support/peer-app';
import { TestApp } from '../support/test-app';

/**
 * A process that stops hands the unused tokens of its rate-limit leases back to Redis, so the
 * processes that stay may allow those calls within the window (a rolling deploy) rather than only
 * in the next one.
 */
(process.env.DATABASE_URL && process.env.REDIS_URL ? describe : describe.skip)('rate-limit leases when a process stops', () => {
  let a: TestApp;
  let redis: Redis;

  beforeAll(async () => {
    a = await TestApp.start();
    redis = new Redis(process.env.REDIS_URL as string);
  });
  afterAll(async () => {
    await redis?.quit();
    await a?.close();
  });

  it("hands the stopping process's unused browser-limit tokens back to the window", async () => {
    // A second process of the same deployment (same QUEUE_PREFIX, so the same counters).
    const leaving = await startPeerApp(a, new AdjustableClock(), { QUEUE_PREFIX: a.config.queuePrefix });
    const { publishableKey } = await a.seedProject({ plan: 'indie' });
    await new ApiClient(leaving.getHttpServer()).as(publishableKey).get('/v1/changelog/widget/entries').expect(200);
    const keys = await redis.keys(`{${a.config.queuePrefix}:rl:browser:*}:hits`);
    expect(keys).toHaveLength(1);
    // One call made, a lease taken: the window counts the call and the tokens granted with it.
    expect(Number(await redis.get(keys[0]))).toBeGreaterThan(1);
    await leaving.close();
    expect(Number(await redis.get(keys[0]))).toBe(1);
  });
});
