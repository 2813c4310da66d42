import type { ThrottlerStorage } from '@nestjs/throttler';
import type { StatementRunner } from '../database/database.service';

type StorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/**
 * Counts one hit of `key` in its window, in one statement: a window that has ended starts again at
 * 1. Concurrent hits of one key from any process serialise on its row, so the count is exact.
 */
export async function incrementCounter(db: StatementRunner, key: string, windowMs: number): Promise<StorageRecord> {
  const [row] = await db.query<{ hits: number; ms_left: string }[]>(
    `INSERT INTO rate_limit_counters AS c (key, hits, expires_at) VALUES ($1, 1, clock_timestamp() + $2 * interval '1 millisecond')
     ON CONFLICT (key) DO UPDATE SET
       hits = CASE WHEN c.expires_at <= clock_timestamp() THEN 1 ELSE c.hits + 1 END,
       expires_at = CASE WHEN c.expires_at <= clock_timestamp() THEN EXCLUDED.expires_at ELSE c.expires_at END
     RETURNING hits, (extract(epoch FROM expires_at - clock_timestamp()) * 1000)::bigint AS ms_left`,
    [key, windowMs],
  );
  const secondsLeft = Math.max(0, Number(row.ms_left)) / 1000;
  return { totalHits: row.hits, timeToExpire: secondsLeft, isBlocked: false, timeToBlockExpire: 0 };
}

/** Deletes up to `limit` counters whose window ended; answers how many. */
export async function deleteEndedCounters(db: StatementRunner, limit: number): Promise<number> {
  const [, deleted] = await db.query<[unknown[], number]>(
    `DELETE FROM rate_limit_counters WHERE key IN (
       SELECT key FROM rate_limit_counters WHERE expires_at < clock_timestamp() LIMIT $1)`,
    [limit],
  );
  return deleted;
}
