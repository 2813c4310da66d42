import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { ThrottlerStorage, ThrottlerStorageService } from '@nestjs/throttler';
import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import Redis from 'ioredis';
import { ApiError } from '../../common/errors/api-error';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';

export interface RateLimitRule {
  /** Names the counter family, such as "browser" or "bell-reads". */
  bucket: string;
  limit: number;
  windowMs: number;
}

export interface RateLimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets (for Retry-After). */
  resetSeconds: number;
}

// While Redis is unreachable, a background PING checks this often whether it is back.
const REDIS_PROBE_INTERVAL_MS = 1_000;

/**
 * Fixed-window counters on @nestjs/throttler's storage: shared in Redis when REDIS_URL is set (so
 * every API process counts together), in this process's memory otherwise.
 *
 * A rate limiter must not take the service down with it: when a Redis call fails or outlives
 * REDIS_COMMAND_TIMEOUT_MS, counting falls back to this process's memory (each process then
 * limits on its own, so the effective limit is looser, never stricter), and requests stop waiting
 * on Redis until a background PING sees it answer again.
 */
@Injectable()
export class RateLimiter implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(RateLimiter.name);
  private readonly memory = new ThrottlerStorageService();
  private readonly shared: ThrottlerStorage | null;
  private readonly redis: Redis | null;
  private degraded = false;
  private probe: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.redis = config.redisUrl
      ? new Redis(config.redisUrl, {
          commandTimeout: config.deadlines.redisCommandMs,
          connectTimeout: Math.max(1_000, config.deadlines.redisCommandMs),
          maxRetriesPerRequest: 1,
        })
      : null;
    // Without a listener, ioredis reports every failed reconnect as an unhandled 'error'.
    this.redis?.on('error', () => undefined);
    this.shared = this.redis ? new ThrottlerStorageRedisService(this.redis) : null;
  }

  /** Starts with shared counters when Redis answers within its deadline, in memory otherwise. */
  async onModuleInit(): Promise<void> {
    const redis = this.redis;
    if (!redis || redis.status === 'ready') return;
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no answer at start')), this.config.deadlines.redisCommandMs + 1_000);
      redis.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    await ready.catch((error: unknown) => this.degrade(error));
  }

  /** Where counters live right now: 'memory' also while Redis is unreachable. */
  get store(): 'redis' | 'memory' {
    return this.shared && !this.degraded && this.redis?.status === 'ready' ? 'redis' : 'memory';
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
    if (this.probe) clearInterval(this.probe);
    if (this.redis) await this.redis.quit().catch(() => this.redis?.disconnect());
    this.memory.onApplicationShutdown();
  }

  onApplicationShutdown(): Promise<void> {
    return this.close();
  }

  private async increment(key: string, rule: RateLimitRule) {
    if (this.shared && this.store === 'redis') {
      try {
        return await this.shared.increment(key, rule.windowMs, rule.limit, rule.windowMs, rule.bucket);
      } catch (error) {
        this.degrade(error);
      }
    }
    return this.memory.increment(key, rule.windowMs, rule.limit, rule.windowMs, rule.bucket);
  }

  private degrade(error: unknown): void {
    if (this.degraded || this.closed) return;
    this.degraded = true;
    this.logger.warn(`Redis did not answer (${(error as Error).message}); rate limits count in memory until it does`);
    this.probe = setInterval(() => void this.checkRedis(), REDIS_PROBE_INTERVAL_MS);
    this.probe.unref();
  }

  private async checkRedis(): Promise<void> {
    if (!this.redis || this.closed) return;
    try {
      await this.redis.ping();
    } catch {
      return;
    }
    if (!this.degraded || this.closed) return;
    this.degraded = false;
    if (this.probe) clearInterval(this.probe);
    this.probe = null;
    this.logger.log('Redis answers again; rate limits are shared again');
  }
}
