import { classifyMovement, monthlyFactor, subscriptionMrr, type SubscriptionTerms } from './mrr';

const at = new Date('2026-11-15T00:00:00Z');

function terms(overrides: Partial<SubscriptionTerms> = {}): SubscriptionTerms {
  return {
    status: 'active',
    currency: 'usd',
    start: '2026-01-01T00:00:00Z',
    trialEnd: null,
    currentPeriodEnd: '2026-12-01T00:00:00Z',
    cancelAtPeriodEnd: false,
    endedAt: null,
    items: [{ priceId: 'price_m', unitAmount: 2000, quantity: 1, interval: 'month', intervalCount: 1, usageType: 'licensed' }],
    discounts: [],
    ...overrides,
  };
}

describe('monthlyFactor', () => {
  it('normalises every interval to a month', () => {
    expect(monthlyFactor('month', 1)).toBe(1);
    expect(monthlyFactor('month', 3)).toBeCloseTo(1 / 3);
    expect(monthlyFactor('year', 1)).toBeCloseTo(1 / 12);
    expect(monthlyFactor('week', 1)).toBeCloseTo(52 / 12);
    expect(monthlyFactor('day', 1)).toBeCloseTo(365 / 12);
  });
});

describe('subscriptionMrr', () => {
  it('multiplies by quantity and divides a yearly price by 12', () => {
    expect(subscriptionMrr(terms({ items: [{ ...terms().items[0], quantity: 3 }] }), at).mrr).toBe(6000);
    expect(subscriptionMrr(terms({ items: [{ ...terms().items[0], unitAmount: 24000, interval: 'year' }] }), at).mrr).toBe(2000);
  });

  it('deducts recurring discounts and ignores one-time ones', () => {
    const percent = { couponId: 'c1', percentOff: 25, amountOff: null, currency: null, duration: 'forever' as const, end: null };
    const amount = {
      couponId: 'c2',
      percentOff: null,
      amountOff: 500,
      currency: 'usd',
      duration: 'repeating' as const,
      end: '2027-01-01T00:00:00Z',
    };
    const once = { couponId: 'c3', percentOff: 50, amountOff: null, currency: null, duration: 'once' as const, end: null };
    expect(subscriptionMrr(terms({ discounts: [percent] }), at).mrr).toBe(1500);
    expect(subscriptionMrr(terms({ discounts: [amount] }), at).mrr).toBe(1500);
    expect(subscriptionMrr(terms({ discounts: [once] }), at).mrr).toBe(2000);
    expect(subscriptionMrr(terms({ discounts: [{ ...amount, end: '2026-11-01T00:00:00Z' }] }), at).mrr).toBe(2000);
  });

  it('excludes trials, metered items and ended subscriptions, and counts past-due', () => {
    expect(subscriptionMrr(terms({ status: 'trialing' }), at)).toMatchObject({ mrr: 0, excludedReason: 'trial' });
    expect(subscriptionMrr(terms({ status: 'past_due' }), at).mrr).toBe(2000);
    expect(subscriptionMrr(terms({ status: 'canceled', endedAt: '2026-11-01T00:00:00Z' }), at).mrr).toBe(0);
    expect(subscriptionMrr(terms({ cancelAtPeriodEnd: true }), at).mrr).toBe(2000);
    const metered = {
      priceId: 'p',
      unitAmount: 10,
      quantity: 1,
      interval: 'month' as const,
      intervalCount: 1,
      usageType: 'metered' as const,
    };
    expect(subscriptionMrr(terms({ items: [...terms().items, metered] }), at).mrr).toBe(2000);
  });
});

describe('classifyMovement', () => {
  it('names each change', () => {
    expect(classifyMovement(0, 100, false)).toBe('new');
    expect(classifyMovement(0, 100, true)).toBe('reactivated');
    expect(classifyMovement(100, 150, true)).toBe('expansion');
    expect(classifyMovement(100, 50, true)).toBe('contraction');
    expect(classifyMovement(100, 0, true)).toBe('churned');
    expect(classifyMovement(100, 100, true)).toBeNull();
  });
});
