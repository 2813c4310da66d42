import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../common/clock/clock';
import { ApiError } from '../common/errors/api-error';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { RateLimitRule, RateLimiter } from '../infra/rate-limit/rate-limiter.service';
import { PLATFORM_LIMITS } from '../projects/plans';

const MAX_BLOCKED_ADDRESSES = 10_000;

/**
 * Guessing API keys is limited per client address (common/http/client-address.ts: an IPv6 client
 * by its /64). Only unknown keys count, on the shared counters (Redis when configured), and only
 * after the lookup has said so: a key that exists, revoked ones included, is answered whatever the
 * address's state, so a stranger's guesses from behind the same address never lock out a server
 * with a good key. Past the limit (API_KEY_FAILURE_LIMIT a minute, default 30) this process
 * remembers the address until the window ends and refuses its unknown keys with 429 RATE_LIMITED
 * without counting them further: a key already cached as unknown then costs neither a database
 * nor a Redis round trip.
 */
@Injectable()
export class KeyGuessLimiter {
  private readonly rule: RateLimitRule;
  /** Address key → end of its block (epoch ms). */
  private readonly blocked = new Map<string, number>();

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly limiter: RateLimiter,
    private readonly clock: Clock,
  ) {
    this.rule = {
      bucket: 'key-failures',
      limit: config.apiKeyFailureLimit ?? PLATFORM_LIMITS.failedKeyLookupsPerMinutePerIp,
      windowMs: 60_000,
    };
  }

  /**
   * Counts an unknown key from this address (clientAddressKey); throws RATE_LIMITED when that was
   * one too many, and at once, without counting, while the address is blocked.
   */
  async recordFailure(address: string): Promise<void> {
    this.refuseWhileBlocked(address);
    const result = await this.limiter.hit(this.rule, address);
    if (result.allowed) return;
    if (this.blocked.size >= MAX_BLOCKED_ADDRESSES) this.pruneExpired();
    this.blocked.set(address, this.clock.now().getTime() + result.resetSeconds * 1000);
    throw this.refusal(result.resetSeconds);
  }

  private refuseWhileBlocked(address: string): void {
    const until = this.blocked.get(address);
    if (until === undefined) return;
    const now = this.clock.now().getTime();
    if (until <= now) this.blocked.delete(address);
    else throw this.refusal(Math.ceil((until - now) / 1000));
  }

  private refusal(retryAfterSeconds: number): ApiError {
    const seconds = String(Math.max(1, retryAfterSeconds));
    return new ApiError('RATE_LIMITED', `Too many unknown API keys from this address; the limit is ${this.rule.limit} per minute.`, {
      param: 'Authorization',
      headers: { 'Retry-After': seconds, 'X-RateLimit-Limit': String(this.rule.limit), 'X-RateLimit-Remaining': '0' },
    });
  }

  private pruneExpired(): void {
    const now = this.clock.now().getTime();
    for (const [address, until] of this.blocked) if (until <= now) this.blocked.delete(address);
    if (this.blocked.size >= MAX_BLOCKED_ADDRESSES) this.blocked.clear();
  }
}
