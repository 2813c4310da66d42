import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import type Redis from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { RequestPathRedis } from '../../infra/request-path-redis';
import type { CountDelta, ReadMark } from './engagement.queries';

/** What one request adds: counter increments and first reads. */
export interface EngagementBatch {
  deltas: CountDelta[];
  reads: ReadMark[];
}

/** Daily counter columns, as a hash field names them. */
const COUNT_COLUMNS = ['widget_views', 'page_views', 'cta_clicks', 'anonymous_readers'] as const;
type CountColumn = (typeof COUNT_COLUMNS)[number];
const PROPERTY_OF: Record<CountColumn, keyof Pick<CountDelta, 'widgetViews' | 'pageViews' | 'ctaClicks' | 'anonymousReaders'>> = {
  widget_views: 'widgetViews',
  page_views: 'pageViews',
  cta_clicks: 'ctaClicks',
  anonymous_readers: 'anonymousReaders',
};

// Renames whatever the requests have added so far into a batch of its own, atomically: a request
// lands either in this batch or in the next hash, never in both or neither.
const TAKE_SCRIPT = `
local taken = 0
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('RENAME', KEYS[1], KEYS[3]); taken = 1 end
if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('RENAME', KEYS[2], KEYS[4]); taken = 1 end
if taken == 1 then redis.call('SADD', KEYS[5], ARGV[1]) end
return taken`;

/**
 * Engagement buffered in Redis (REDIS_URL), where it outlives the process that counted it:
 * - `<prefix>:{engagement}:counts`, a hash whose fields say what they count,
 *   `<column>|<day>|<project id>|<entry id>` → increments (HINCRBY);
 * - `<prefix>:{engagement}:reads`, `<project id>|<entry id>|<user id>` → first seen (HSETNX).
 * A flush renames both into `<prefix>:{engagement}:batch:<id>:counts|reads` and lists the id in
 * `<prefix>:{engagement}:batches` (one script), adds a batch to PostgreSQL, then deletes it. The
 * `{engagement}` hash tag keeps every key in one Redis Cluster slot, as the script and MULTI need.
 *
 * After a failed call (`failed`), requests stop waiting on Redis (the recorder writes to PostgreSQL)
 * until a background PING sees it answer again (request-path-redis.ts, as the rate limiter does).
 */
@Injectable()
export class EngagementRedisBuffer implements OnApplicationShutdown {
  private readonly connection: RequestPathRedis;
  private readonly base: string;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.base = `${config.queuePrefix}:{engagement}`;
    this.connection = new RequestPathRedis(config, EngagementRedisBuffer.name, {
      degraded: 'engagement is buffered in the database until it does',
      restored: 'engagement is buffered there again',
    });
  }

  get redis(): Redis | null {
    return this.connection.client;
  }

  /** Whether a request should buffer here now (Redis configured and connected). */
  get ready(): boolean {
    return this.connection.usable;
  }

  /** A call failed or timed out: requests write elsewhere until Redis answers a PING again. */
  failed(error: unknown): void {
    this.connection.failed(error);
  }

  /** One round trip (MULTI): the request's increments and first reads. */
  async add(batch: EngagementBatch): Promise<void> {
    if (!this.redis) throw new Error('Redis is not configured');
    const multi = this.redis.multi();
    for (const delta of batch.deltas) {
      for (const column of COUNT_COLUMNS) {
        const by = delta[PROPERTY_OF[column]];
        if (by > 0) multi.hincrby(`${this.base}:counts`, `${column}|${delta.day}|${delta.projectId}|${delta.entryId}`, by);
      }
    }
    for (const read of batch.reads) {
      multi.hsetnx(`${this.base}:reads`, `${read.projectId}|${read.entryId}|${read.userId}`, read.at.toISOString());
    }
    await multi.exec();
  }

  /** Moves what requests added so far into the batch `id`; false when there was nothing. */
  async take(id: string): Promise<boolean> {
    if (!this.redis) return false;
    const keys = [`${this.base}:counts`, `${this.base}:reads`, ...this.batchKeys(id), `${this.base}:batches`];
    return (await this.redis.eval(TAKE_SCRIPT, keys.length, ...keys, id)) === 1;
  }

  /** Batches taken and not yet deleted: this flush's, and any a dead flusher left. */
  async batchIds(): Promise<string[]> {
    return this.redis ? this.redis.smembers(`${this.base}:batches`) : [];
  }

  async read(id: string): Promise<EngagementBatch> {
    if (!this.redis) return { deltas: [], reads: [] };
    const [countsKey, readsKey] = this.batchKeys(id);
    const [counts, reads] = await Promise.all([this.redis.hgetall(countsKey), this.redis.hgetall(readsKey)]);
    return { deltas: deltasOf(counts), reads: readsOf(reads) };
  }

  /** After the batch is in PostgreSQL (or was found there). */
  async drop(id: string): Promise<void> {
    if (!this.redis) return;
    await this.redis
      .multi()
      .del(...this.batchKeys(id))
      .srem(`${this.base}:batches`, id)
      .exec();
  }

  onApplicationShutdown(): Promise<void> {
    return this.connection.close();
  }

  private batchKeys(id: string): [string, string] {
    return [`${this.base}:batch:${id}:counts`, `${this.base}:batch:${id}:reads`];
  }
}

function deltasOf(fields: Record<string, string>): CountDelta[] {
  const deltas = new Map<string, CountDelta>();
  for (const [field, value] of Object.entries(fields)) {
    const [column, day, projectId, entryId] = field.split('|') as [CountColumn, string, string, string];
    if (!PROPERTY_OF[column] || !entryId) continue;
    const key = `${entryId}|${day}`;
    let delta = deltas.get(key);
    if (!delta) {
      delta = { projectId, entryId, day, widgetViews: 0, pageViews: 0, ctaClicks: 0, anonymousReaders: 0 };
      deltas.set(key, delta);
    }
    delta[PROPERTY_OF[column]] += Number(value);
  }
  return [...deltas.values()];
}

function readsOf(fields: Record<string, string>): ReadMark[] {
  return Object.entries(fields).flatMap(([field, at]) => {
    // User ids may hold '|': the first two separators end the project and entry ids.
    const first = field.indexOf('|');
    const second = field.indexOf('|', first + 1);
    if (first < 0 || second < 0) return [];
    return [
      { projectId: field.slice(0, first), entryId: field.slice(first + 1, second), userId: field.slice(second + 1), at: new Date(at) },
    ];
  });
}
