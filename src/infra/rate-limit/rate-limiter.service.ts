import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { ThrottlerStorageService } from '@nestjs/throttler';
import { ApiError } from '../../common/errors/api-error';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { Database } from '../database/database.service';
import { isEmbeddedDatabaseUrl } from '../database/embedded-postgres';
import { RequestPathRedis } from '../request-path-redis';
import { deleteEndedCounters, incrementCounter } from './rate-limit-counters.queries';
import { RedisWindowCounters } from './redis-window-counters';

/** Ended counters deleted per statement: short statements, however many windows ended. */
const SWEEP_BATCH = 5_000;

export interface RateLimitRule {
  /** Names the counter family, such as "browser" or "bell-reads". */
  bucket: string;
  limit: number;
  windowMs: number;
  /**
   * Hits of one subject's window a process may take from Redis at once and allow from memory, or
   * 1/1024 of the limit when that is more (redis-window-counters.ts says what that changes across
   * processes). 1, the default, counts every hit in Redis; only the limits every browser poll pays set more.
   */
  lease?: number;
}

export interface RateLimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets (for Retry-After). */
  resetSeconds: number;
}

/**
 * Fixed-window counters shared by every API process: in Redis when REDIS_URL is set (one script
 * per call, or per lease of hits for the rules that take one: redis-window-counters.ts); without
 * Redis, in PostgreSQL (rate_limit_counters, one upsert per hit), so that N processes behind a load
 * balancer still allow each limit once, not N times. On the embedded
 * database (one process by construction) they stay in this process's memory. Ended windows are
 * deleted by the sweep below.
 *
 * A rate limiter must not take the service down with it: when a Redis call fails or outlives
 * REDIS_COMMAND_TIMEOUT_MS, counting falls back to this process's memory (each process then
 * limits on its own, so the effective limit is looser, never stricter), and requests stop waiting
 * on Redis until a background PING sees it answer again.
 */
@Injectable()
export class RateLimiter implements OnModuleInit, OnApplicationShutdown {
  private readonly memory = new ThrottlerStorageService();
  private readonly shared: RedisWindowCounters | null;
  private readonly redis: RequestPathRedis;
  private closed = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: Database,
  ) {
    this.redis = new RequestPathRedis(config, RateLimiter.name, {
      degraded: 'rate limits count in memory until it does',
      restored: 'rate limits are shared again',
    });
    this.shared = this.redis.client ? new RedisWindowCounters(this.redis.client) : null;
    this.inDatabase = !this.shared && config.databaseUrl !== null && !isEmbeddedDatabaseUrl(config.databaseUrl);
  }

  /** True when counters live in PostgreSQL (no Redis, a database server several processes share). */
  private readonly inDatabase: boolean;
  private sweeper: NodeJS.Timeout | null = null;

  /** Starts with shared counters when Redis answers within its deadline, in memory otherwise. */
  async onModuleInit(): Promise<void> {
    if (this.inDatabase) {
      // Every process sweeps a little; a counter outlives its window by a minute at most.
      this.sweeper = setInterval(() => void this.sweepEndedCounters().catch(() => undefined), 60_000);
      this.sweeper.unref();
    }
    const redis = this.redis.client;
    if (!redis || redis.status === 'ready') return;
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no answer at start')), this.config.deadlines.redisCommandMs + 1_000);
      redis.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    await ready.catch((error: unknown) => this.redis.failed(error));
  }

  /** Where counters live right now: 'memory' also while Redis is unreachable. */
  get store(): 'redis' | 'database' | 'memory' {
    if (this.inDatabase) return 'database';
    return this.shared && this.redis.usable ? 'redis' : 'memory';
  }

  async hit(rule: RateLimitRule, subject: string): Promise<RateLimitResult> {
    const key = `${this.config.queuePrefix}:rl:${rule.bucket}:${subject}`;
    const record = await this.increment(key, rule);
    const resetSeconds = Math.max(1, Math.ceil(record.isBlocked ? record.timeToBlockExpire : record.timeToExpire));
    return {
      allowed: record.totalHits <= rule.limit,
      limit: rule.limit,
      remaining: Math.max(0, rule.limit - record.totalHits),
      resetSeconds,
    };
  }

  /** Counts a hit and throws RATE_LIMITED (with Retry-After) past the limit. */
  async enforce(rule: RateLimitRule, subject: string, message: string): Promise<RateLimitResult> {
    const result = await this.hit(rule, subject);
    if (!result.allowed) {
      throw new ApiError('RATE_LIMITED', message, {
        headers: { 'Retry-After': String(result.resetSeconds), 'X-RateLimit-Limit': String(result.limit), 'X-RateLimit-Remaining': '0' },
      });
    }
    return result;
  }

  /** Closes the Redis connection; bootstrap.ts calls it after the queues and before the database. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.sweeper) clearInterval(this.sweeper);
    // Unused lease tokens go back to Redis while it still answers, for the processes that stay.
    await this.shared?.close(this.redis.usable);
    await this.redis.close();
    this.memory.onApplicationShutdown();
  }

  onApplicationShutdown(): Promise<void> {
    return this.close();
  }

  /** Deletes ended windows in batches until a batch comes back short (at most 20 a sweep). */
  private async sweepEndedCounters(): Promise<void> {
    for (let batch = 0; batch < 20; batch += 1) {
      if ((await deleteEndedCounters(this.db.reads, SWEEP_BATCH)) < SWEEP_BATCH) return;
    }
  }

  private async increment(key: string, rule: RateLimitRule) {
    if (this.inDatabase) {
      // A database that cannot count fails the request anyway (503 from its own path); counting
      // in memory meanwhile keeps the limiter from being the thing that fails.
      try {
        return await incrementCounter(this.db.reads, key, rule.windowMs);
      } catch {
        return this.memory.increment(key, rule.windowMs, rule.limit, rule.windowMs, rule.bucket);
      }
    }
    if (this.shared && this.store === 'redis') {
      try {
        return await this.shared.increment(key, rule);
      } catch (error) {
        this.redis.failed(error);
      }
    }
    return this.memory.increment(key, rule.windowMs, rule.limit, rule.windowMs, rule.bucket);
  }
}
