import type { PoolClient } from 'pg';
import { isBackendOutage } from '../../src/common/http/backend-outage';
import { AdmissionPool, DatabaseBusyError } from '../../src/infra/database/pool-admission';
import { TestDatabase, createTestDatabase } from '../support/test-database';

interface Settled {
  ok: boolean;
  ms: number;
  error?: unknown;
}

/** Runs `statement` through the pool; how it ended and after how long, never thrown. */
async function timed(pool: AdmissionPool, statement: string): Promise<Settled> {
  const started = performance.now();
  try {
    await pool.query(statement);
    return { ok: true, ms: performance.now() - started };
  } catch (error) {
    return { ok: false, ms: performance.now() - started, error };
  }
}

/**
 * The pool behind every data source (src/infra/database/pool-admission.ts), on its own against
 * PostgreSQL: pg_sleep makes each statement hold its connection a known time.
 */
describe('AdmissionPool', () => {
  let db: TestDatabase;
  const pools: AdmissionPool[] = [];
  const open = (max: number, connectTimeoutMs: number, queueWaitMs: number) => {
    const pool = new AdmissionPool({ connectionString: db.url, max, connectionTimeoutMillis: connectTimeoutMs, queueWaitMs });
    // pool.end() resolves once its idle connections are asked to close, not once they have: dropping
    // the database right after can terminate one still closing, which pg-pool reports as the pool's
    // 'error' event. The service's pools have TypeORM's listener; these need their own.
    pool.on('error', () => undefined);
    pools.push(pool);
    return pool;
  };

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await Promise.all(pools.filter((pool) => !pool.ending).map((pool) => pool.end()));
    await db.drop();
  });

  it('lets every caller it admitted wait for its turn past the connect deadline, as long as the line moves', async () => {
    const pool = open(1, 800, 5_000);
    // The connection is opened first: on a loaded machine opening it alone can take a deadline's worth.
    expect((await timed(pool, 'SELECT 1')).ok).toBe(true);
    // Six statements of 250 ms on one connection: the last waits about 1,250 ms for it, each turn
    // comes well within the 800 ms deadline.
    const outcomes = await Promise.all(Array.from({ length: 6 }, () => timed(pool, 'SELECT pg_sleep(0.25)')));
    expect(outcomes.map((outcome) => outcome.ok)).toEqual([true, true, true, true, true, true]);
    expect(Math.max(...outcomes.map((outcome) => outcome.ms))).toBeGreaterThan(1_200);
  });

  it('refuses newcomers at once, with a Retry-After, while the first in line has waited longer than the line wait', async () => {
    const pool = open(1, 5_000, 200);
    // Eight statements of 100 ms arrive together: all are lined up and served in order.
    const first = Array.from({ length: 8 }, () => timed(pool, 'SELECT pg_sleep(0.1)'));
    await new Promise((resolve) => setTimeout(resolve, 350));
    // The first in line has waited about 350 ms: newcomers are turned away.
    const later = await Promise.all(Array.from({ length: 5 }, () => timed(pool, 'SELECT pg_sleep(0.1)')));
    expect((await Promise.all(first)).map((outcome) => outcome.ok)).toEqual(Array(8).fill(true));
    for (const outcome of later) {
      expect(outcome.ok).toBe(false);
      expect(outcome.error).toBeInstanceOf(DatabaseBusyError);
      expect((outcome.error as DatabaseBusyError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect((outcome.error as DatabaseBusyError).retryAfterSeconds).toBeLessThanOrEqual(5);
      // At once: before a statement (100 ms) could even have run.
      expect(outcome.ms).toBeLessThan(100);
    }
    // The line has emptied: callers get in again.
    expect((await timed(pool, 'SELECT 1')).ok).toBe(true);
  });

  it('fails everyone in line, as an outage, when no connection comes back within the connect deadline', async () => {
    const pool = open(1, 300, 5_000);
    const held: PoolClient = await pool.connect();
    const waiting = await timed(pool, 'SELECT 1');
    expect(waiting.ok).toBe(false);
    expect(waiting.ms).toBeGreaterThanOrEqual(290);
    expect((waiting.error as { code?: string }).code).toBe('ETIMEDOUT');
    expect(isBackendOutage(waiting.error)).toBe(true);
    held.release();
    expect((await timed(pool, 'SELECT 1')).ok).toBe(true);
  });

  it('fails the callers still in line when the pool ends', async () => {
    const pool = open(1, 5_000, 5_000);
    const held: PoolClient = await pool.connect();
    const waiting = timed(pool, 'SELECT 1');
    const ended = pool.end();
    expect(await waiting).toMatchObject({ ok: false, error: new Error('Cannot use a pool after calling end on the pool') });
    held.release();
    await ended;
  });
});
