import { fakeExchange, policyContext, policyOf, projectRef } from '../../../test/support/policy-context';
import { ApiError } from '../../common/errors/api-error';
import type { AppConfig } from '../../config/app-config';
import type { RateLimitResult, RateLimitRule, RateLimiter } from '../../infra/rate-limit/rate-limiter.service';
import { BrowserLimitStep } from './browser-limit.step';

const project = projectRef();

function setUp(browserRateLimit: number | null, refuse = false) {
  const hits: Array<{ rule: RateLimitRule; subject: string; message: string }> = [];
  const limiter = {
    enforce: (rule: RateLimitRule, subject: string, message: string) => {
      hits.push({ rule, subject, message });
      if (refuse) return Promise.reject(new ApiError('RATE_LIMITED', message, { headers: { 'Retry-After': '60' } }));
      return Promise.resolve({ allowed: true, limit: rule.limit, remaining: rule.limit - 1, resetSeconds: 60 } as RateLimitResult);
    },
  } as unknown as RateLimiter;
  return { step: new BrowserLimitStep({ browserRateLimit } as AppConfig, limiter), hits };
}

describe('BrowserLimitStep', () => {
  it('counts a publishable key on a browser route per address, 120 a minute, and reports what is left', async () => {
    const { step, hits } = setUp(null);
    const exchange = fakeExchange({ ip: '203.0.113.9' });
    const context = policyContext(exchange, policyOf('publishable'));
    context.caller = { kind: 'publishable_key', project, keyId: 'key_1' };
    await step.run(context);
    expect(hits).toEqual([
      {
        rule: { bucket: 'browser', limit: 120, windowMs: 60_000, lease: 8 },
        subject: '203.0.113.9',
        message: 'Too many requests from this address; the limit is 120 per minute.',
      },
    ]);
    expect(exchange.headers).toEqual({ 'X-RateLimit-Limit': '120', 'X-RateLimit-Remaining': '119' });
  });

  it('counts anonymous callers of a public browser route, under BROWSER_RATE_LIMIT when set', async () => {
    const { step, hits } = setUp(600);
    const exchange = fakeExchange({ ip: '2001:db8:1:2:3:4:5:6' });
    await step.run(policyContext(exchange, policyOf('none', { browser: true })));
    expect(hits[0].rule.limit).toBe(600);
    expect(hits[0].subject).toBe('2001:db8:1:2::/64');
    expect(exchange.headers['X-RateLimit-Limit']).toBe('600');
  });

  it('passes a secret key and routes that are not for browsers, without an await', () => {
    const { step, hits } = setUp(null);
    const secret = policyContext(fakeExchange(), policyOf('publishable'));
    secret.caller = { kind: 'secret_key', project, keyId: 'key_1' };
    expect(step.run(secret)).toBeUndefined();
    expect(step.run(policyContext(fakeExchange(), policyOf('secret')))).toBeUndefined();
    expect(step.run(policyContext(fakeExchange(), policyOf('dashboard')))).toBeUndefined();
    expect(hits).toEqual([]);
  });

  it('refuses over the limit with 429 RATE_LIMITED and sets no count headers', async () => {
    const { step } = setUp(null, true);
    const exchange = fakeExchange();
    await expect(step.run(policyContext(exchange, policyOf('none', { browser: true })))).rejects.toMatchObject({
      code: 'RATE_LIMITED',
      headers: { 'Retry-After': '60' },
    });
    expect(exchange.headers).toEqual({});
  });
});
