import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
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

/**
 * Fixed-window counters on @nestjs/throttler's storage: shared in Redis when REDIS_URL is set (so
 * every API process counts together), in this process's memory otherwise.
 */
@Injectable()
export class RateLimiter implements OnModuleDestroy {
  private readonly storage: ThrottlerStorage & { onApplicationShutdown?: () => void };
  private readonly redis: Redis | null;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 2, lazyConnect: false }) : null;
    this.storage = this.redis ? new ThrottlerStorageRedisService(this.redis) : new ThrottlerStorageService();
  }

  async hit(rule: RateLimitRule, subject: string): Promise<RateLimitResult> {
    const key = `${this.config.queuePrefix}:rl:${rule.bucket}:${subject}`;
    const record = await this.storage.increment(key, rule.windowMs, rule.limit, rule.windowMs, rule.bucket);
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

  async onModuleDestroy(): Promise<void> {
    this.storage.onApplicationShutdown?.();
    if (this.redis) await this.redis.quit().catch(() => undefined);
  }
}
