import { Inject, Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { RateLimitRule, RateLimiter } from '../infra/rate-limit/rate-limiter';
import { PLATFORM_LIMITS } from '../projects/plans';

const MAX_BLOCKED_ADDRESSES = 10_000;

/**
 * Guessing API keys is limited per IP address: every unknown key counts on the shared counters
 * (Redis when configured), and past the limit (API_KEY_FAILURE_LIMIT a minute, default 30) this
 * process remembers the address until the window ends and answers 429 RATE_LIMITED before any
 * lookup, so a guess costs no database round trip. Known keys, revoked ones included, never count:
 * a server with a good key behind the same address keeps working.
 */
@Injectable()
export class KeyGuessLimiter {
  private readonly rule: RateLimitRule;
  /** Address → end of its block (epoch ms). */
  private readonly blocked = new Map<string, number>();

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly limiter: RateLimiter,
  ) {
    this.rule = {
      bucket: 'key-failures',
      limit: config.apiKeyFailureLimit ?? PLATFORM_LIMITS.failedKeyLookupsPerMinutePerIp,
      windowMs: 60_000,
    };
  }

  /** Throws RATE_LIMITED while the address is over its budget of unknown keys. */
  assertAllowed(ip: string): void {
    const until = this.blocked.get(ip);
    if (until === undefined) return;
    const now = Date.now();
    if (until <= now) this.blocked.delete(ip);
    else throw this.refusal(Math.ceil((until - now) / 1000));
  }

  /** Counts an unknown key; throws RATE_LIMITED when that was one too many. */
  async recordFailure(ip: string): Promise<void> {
    const result = await this.limiter.hit(this.rule, ip);
    if (result.allowed) return;
    if (this.blocked.size >= MAX_BLOCKED_ADDRESSES) this.pruneExpired();
    this.blocked.set(ip, Date.now() + result.resetSeconds * 1000);
    throw this.refusal(result.resetSeconds);
  }

  private refusal(retryAfterSeconds: number): ApiError {
    const seconds = String(Math.max(1, retryAfterSeconds));
    return new ApiError('RATE_LIMITED', `Too many unknown API keys from this address; the limit is ${this.rule.limit} per minute.`, {
      param: 'Authorization',
      headers: { 'Retry-After': seconds, 'X-RateLimit-Limit': String(this.rule.limit), 'X-RateLimit-Remaining': '0' },
    });
  }

  private pruneExpired(): void {
    const now = Date.now();
    for (const [ip, until] of this.blocked) if (until <= now) this.blocked.delete(ip);
    if (this.blocked.size >= MAX_BLOCKED_ADDRESSES) this.blocked.clear();
  }
}
