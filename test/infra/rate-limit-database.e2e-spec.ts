import type { NestExpressApplication } from '@nestjs/platform-express';
import { AdjustableClock } from '../../src/common/clock/clock';
import { Database } from '../../src/infra/database/database.service';
import { deleteEndedCounters } from '../../src/infra/rate-limit/rate-limit-counters.queries';
import { RateLimiter } from '../../src/infra/rate-limit/rate-limiter.service';
import { ApiClient } from '../support/api-client';
import { startPeerApp } from '../support/peer-app';
import { TestApp } from '../support/test-app';

/**
 * Without Redis, on a PostgreSQL server, the rate-limit counters live in rate_limit_counters, so two
 * API processes on one database allow each limit once between them (not once each). The embedded
 * database is one process by construction and keeps them in memory.
 */
const LIMIT = 5;

(process.env.DATABASE_URL ? describe : describe.skip)('rate limits without Redis, across two API processes', () => {
  let a: TestApp;
  let b: NestExpressApplication;

  beforeAll(async () => {
    const env = { REDIS_URL: '', BROWSER_RATE_LIMIT: String(LIMIT) };
    a = await TestApp.start({ env });
    // Processes of one deployment share the QUEUE_PREFIX that names their counters.
    b = await startPeerApp(a, new AdjustableClock(), { ...env, QUEUE_PREFIX: a.config.queuePrefix });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('counts in PostgreSQL: one limit shared by both processes, exact under concurrency', async () => {
    expect(a.get(RateLimiter).store).toBe('database');
    expect(b.get(RateLimiter).store).toBe('database');
    const { publishableKey } = await a.seedProject({ plan: 'indie' });
    const apis = [a.api, new ApiClient(b.getHttpServer())];
    const responses = await Promise.all(
      Array.from({ length: 3 * LIMIT }, (_, i) => apis[i % 2].as(publishableKey).get('/v1/changelog/widget/entries')),
    );
    const statuses = responses.map((res) => res.status).sort();
    expect(statuses).toEqual([...Array(LIMIT).fill(200), ...Array(2 * LIMIT).fill(429)]);
    const refused = responses.find((res) => res.status === 429)!;
    expect(refused.body.error).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    const rows: { key: string; hits: number }[] = await a.db.manager.query(
      "SELECT key, hits FROM rate_limit_counters WHERE key LIKE '%:rl:browser:%'",
    );
    expect(rows).toEqual([expect.objectContaining({ hits: 3 * LIMIT })]);
  });

  it('starts a window again once it has ended, and the sweep deletes ended counters only', async () => {
    await a.db.manager.query("UPDATE rate_limit_counters SET expires_at = clock_timestamp() - interval '1 second'");
    const { publishableKey } = await a.seedProject({ plan: 'indie' });
    await a.api.as(publishableKey).get('/v1/changelog/widget/entries').expect(200);
    const [row]: { hits: number }[] = await a.db.manager.query("SELECT hits FROM rate_limit_counters WHERE key LIKE '%:rl:browser:%'");
    expect(row.hits).toBe(1);
    await a.db.manager.query(
      "INSERT INTO rate_limit_counters (key, hits, expires_at) VALUES ('ended', 3, clock_timestamp() - interval '1 minute')",
    );
    expect(await deleteEndedCounters(a.get(Database).reads, 100)).toBe(1);
    const keys: { key: string }[] = await a.db.manager.query('SELECT key FROM rate_limit_counters');
    expect(keys.map((k) => k.key)).toEqual([expect.stringContaining(':rl:browser:')]);
  });
});
