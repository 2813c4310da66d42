import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import type { RateLimitRule } from '../../src/infra/rate-limit/rate-limiter.service';
import { RedisWindowCounters, leaseSizeOf } from '../../src/infra/rate-limit/redis-window-counters';

/**
 * The Redis counters of the rate limits, on a real Redis: a leased rule takes several hits of a
 * window per round trip and still never allows more than the limit; one process counts exactly as
 * hit-by-hit counting; a burst spread over two processes is exact; a lease ends with its window;
 * a process that closes hands its unused tokens back to the window that granted them, and only to it.
 */
const redisUrl = process.env.REDIS_URL;

(redisUrl ? describe : describe.skip)('rate-limit counters in Redis', () => {
  const prefix = `t_rwc_${randomBytes(4).toString('hex')}`;
  const clients: Redis[] = [];
  const counters: RedisWindowCounters[] = [];

  /** One "process": its own connection and leases. */
  function processCounters(): RedisWindowCounters {
    const redis = new Redis(redisUrl as string);
    clients.push(redis);
    const created = new RedisWindowCounters(redis);
    counters.push(created);
    return created;
  }
  let keys = 0;
  const newKey = () => `${prefix}:k${(keys += 1)}`;
  /** The window's count as Redis holds it (hits plus tokens granted and not yet used). */
  const countedInRedis = async (key: string, rule: RateLimitRule) => Number(await clients[0].get(`{${key}:${rule.bucket}}:hits`));

  afterAll(async () => {
    await Promise.all(counters.map((c) => c.close(false)));
    const found = await clients[0].keys(`{${prefix}:*`);
    if (found.length > 0) await clients[0].del(...found);
    await Promise.all(clients.map((c) => c.quit()));
  });

  it('counts a leased rule exactly in one process, with one round trip per grant', async () => {
    const one = processCounters();
    const rule: RateLimitRule = { bucket: 'browser', limit: 200, windowMs: 60_000, lease: 8 };
    const key = newKey();
    const totals: number[] = [];
    for (let i = 0; i < 3; i += 1) totals.push((await one.increment(key, rule)).totalHits);
    expect(totals).toEqual([1, 2, 3]);
    // One grant of 8 (the most a lease takes) served all three.
    expect(await countedInRedis(key, rule)).toBe(8);
    for (let i = 0; i < 6; i += 1) await one.increment(key, rule);
    expect(await countedInRedis(key, rule)).toBe(16);
  });

  it('allows exactly the limit, then refuses and blocks for the window, counting refused calls', async () => {
    const one = processCounters();
    const rule: RateLimitRule = { bucket: 'browser', limit: 40, windowMs: 60_000, lease: 8 };
    const key = newKey();
    const records = [];
    for (let i = 0; i < 45; i += 1) records.push(await one.increment(key, rule));
    expect(records.map((r) => r.totalHits)).toEqual(Array.from({ length: 45 }, (_, i) => i + 1));
    expect(records.filter((r) => !r.isBlocked)).toHaveLength(40);
    const refused = records[40];
    expect(refused.isBlocked).toBe(true);
    expect(refused.timeToBlockExpire).toBeGreaterThan(59);
    expect(refused.timeToBlockExpire).toBeLessThanOrEqual(60);
    expect(await countedInRedis(key, rule)).toBe(45);
  });

  it('refuses every concurrent call during a block, each asked of Redis and counted there', async () => {
    const one = processCounters();
    const rule: RateLimitRule = { bucket: 'browser', limit: 3, windowMs: 60_000, lease: 8 };
    const key = newKey();
    for (let i = 0; i < 4; i += 1) await one.increment(key, rule);
    const during = await Promise.all(Array.from({ length: 10 }, () => one.increment(key, rule)));
    expect(during.every((record) => record.isBlocked && record.timeToBlockExpire > 59)).toBe(true);
    expect(during.map((record) => record.totalHits).sort((x, y) => x - y)).toEqual(Array.from({ length: 10 }, (_, i) => i + 5));
    expect(await countedInRedis(key, rule)).toBe(14);
  });

  it('allows the limit exactly once over two processes in a concurrent burst', async () => {
    const [a, b] = [processCounters(), processCounters()];
    const rule: RateLimitRule = { bucket: 'bell-reads', limit: 180, windowMs: 60_000, lease: 8 };
    const key = newKey();
    const records = await Promise.all(Array.from({ length: 220 }, (_, i) => (i % 2 === 0 ? a : b).increment(key, rule)));
    expect(records.filter((r) => !r.isBlocked)).toHaveLength(180);
    expect(records.filter((r) => r.isBlocked)).toHaveLength(40);
  });

  it('has concurrent calls of one process wait for one grant instead of each asking', async () => {
    const one = processCounters();
    const rule: RateLimitRule = { bucket: 'browser', limit: 8_192, windowMs: 60_000, lease: 8 };
    const key = newKey();
    const records = await Promise.all(Array.from({ length: 20 }, () => one.increment(key, rule)));
    expect(records.map((r) => r.totalHits).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(await countedInRedis(key, rule)).toBe(24);
  });

  it('leases 1/1024 of a lifted limit per grant, still counting exactly in one process', async () => {
    const one = processCounters();
    const rule: RateLimitRule = { bucket: 'browser', limit: 102_400, windowMs: 60_000, lease: 8 };
    expect(leaseSizeOf(rule)).toBe(100);
    expect(leaseSizeOf({ ...rule, limit: 120 })).toBe(8);
    expect(leaseSizeOf({ bucket: 'key-guess', limit: 1_000_000, windowMs: 60_000 })).toBe(1);
    const key = newKey();
    const records = await Promise.all(Array.from({ length: 150 }, () => one.increment(key, rule)));
    expect(records.map((r) => r.totalHits).sort((x, y) => x - y)).toEqual(Array.from({ length: 150 }, (_, i) => i + 1));
    // Two round trips for 150 calls, where a lease of 8 took 19.
    expect(await countedInRedis(key, rule)).toBe(200);
  });

  it('counts a rule without a lease one hit per round trip', async () => {
    const one = processCounters();
    const rule: RateLimitRule = { bucket: 'key-guess', limit: 5, windowMs: 60_000 };
    const key = newKey();
    await one.increment(key, rule);
    await one.increment(key, rule);
    expect(await countedInRedis(key, rule)).toBe(2);
  });

  it('does not use a lease past the end of its window', async () => {
    const one = processCounters();
    const rule: RateLimitRule = { bucket: 'browser', limit: 200, windowMs: 300, lease: 8 };
    const key = newKey();
    expect((await one.increment(key, rule)).totalHits).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 350));
    // A new window: counted again from 1, with a grant of its own.
    expect((await one.increment(key, rule)).totalHits).toBe(1);
    expect(await countedInRedis(key, rule)).toBe(8);
  });

  it('hands unused tokens back when a process closes, so its peer allows the whole limit', async () => {
    const [leaving, staying] = [processCounters(), processCounters()];
    const rule: RateLimitRule = { bucket: 'browser', limit: 200, windowMs: 60_000, lease: 8 };
    const key = newKey();
    await leaving.increment(key, rule);
    expect(await countedInRedis(key, rule)).toBe(8);
    expect(await leaving.close()).toBe(7);
    expect(await countedInRedis(key, rule)).toBe(1);
    // Kept, the 7 tokens would have refused the peer's last 7 calls of the window.
    const records = [];
    for (let i = 0; i < 200; i += 1) records.push(await staying.increment(key, rule));
    expect(records.filter((r) => !r.isBlocked)).toHaveLength(199);
    expect(records[198].totalHits).toBe(200);
    expect(records[199].isBlocked).toBe(true);
  });

  it('hands no token to a window that began again, nor any when told not to', async () => {
    const rule: RateLimitRule = { bucket: 'browser', limit: 200, windowMs: 60_000, lease: 8 };
    const key = newKey();
    const leaving = processCounters();
    await leaving.increment(key, rule);
    // The window the lease came from is gone; another one, of a different length, counts now.
    await clients[0].del(`{${key}:${rule.bucket}}:hits`);
    await processCounters().increment(key, { ...rule, windowMs: 600_000 });
    expect(await leaving.close()).toBe(0);
    expect(await countedInRedis(key, rule)).toBe(8);

    const silent = processCounters();
    const other = newKey();
    await silent.increment(other, rule);
    expect(await silent.close(false)).toBe(0);
    expect(await countedInRedis(other, rule)).toBe(8);
  });

  it('shrinks grants near the limit so the last hits are counted one by one', async () => {
    const one = processCounters();
    const rule: RateLimitRule = { bucket: 'browser', limit: 20, windowMs: 60_000, lease: 8 };
    const key = newKey();
    // 20 left: a grant of 1 (20 / 16), so Redis holds exactly the hits.
    await one.increment(key, rule);
    expect(await countedInRedis(key, rule)).toBe(1);
  });
});
