import { Inject, Injectable } from '@nestjs/common';
import { clientAddressKey, clientIp } from '../../common/http/client-address';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { RateLimitRule, RateLimiter } from '../../infra/rate-limit/rate-limiter.service';
import { POLL_COUNTER_LEASE } from '../../infra/rate-limit/redis-window-counters';
import { PLATFORM_LIMITS } from '../../projects/plans';
import type { PolicyContext, PolicyStep } from './policy-step';

/**
 * Browser routes (spec: 120 requests per minute per IP address, an IPv6 client's /64;
 * BROWSER_RATE_LIMIT lifts it). A secret key calling a browser route is a server, not limited
 * per address. Every answer of a limited route carries X-RateLimit-Limit and -Remaining; over the
 * limit the refusal is 429 RATE_LIMITED with Retry-After (infra/rate-limit).
 */
@Injectable()
export class BrowserLimitStep implements PolicyStep {
  private readonly rule: RateLimitRule;
  private readonly message: string;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly limiter: RateLimiter,
  ) {
    this.rule = {
      bucket: 'browser',
      limit: config.browserRateLimit ?? PLATFORM_LIMITS.browserCallsPerMinutePerIp,
      windowMs: 60_000,
      lease: POLL_COUNTER_LEASE,
    };
    this.message = `Too many requests from this address; the limit is ${this.rule.limit} per minute.`;
  }

  run(context: PolicyContext): Promise<void> | void {
    if (!context.policy.browser || context.caller.kind === 'secret_key') return;
    return this.limit(context);
  }

  private async limit(context: PolicyContext): Promise<void> {
    const result = await this.limiter.enforce(this.rule, clientAddressKey(clientIp(context.req)), this.message);
    context.res.setHeader('X-RateLimit-Limit', String(result.limit));
    context.res.setHeader('X-RateLimit-Remaining', String(result.remaining));
  }
}
