/**
 * The MRR method (docs/revenue.md, "The method"), as pure functions over a subscription's terms:
 * - each licensed recurring price is normalised to a month: monthly ÷ interval count, yearly ÷ 12,
 *   weekly × 52 ÷ 12, daily × 365 ÷ 12; times the quantity;
 * - recurring discounts (duration `forever`, or `repeating` until their end) are deducted in the
 *   order the processor lists them: a percentage of what is left, an amount off per invoice
 *   normalised to a month by the subscription's interval; `once` discounts are one-time and ignored;
 * - metered prices, tiered prices without a unit amount and one-time charges are excluded;
 * - trials are excluded (status `trialing`, or a trial end still ahead);
 * - `active` and `past_due` count; a subscription cancelled at period end counts until that end
 *   (churn at the end of the paid period); every other status counts nothing;
 * - each subscription's MRR is rounded to the currency's minor unit once, at the end.
 */

export type Interval = 'day' | 'week' | 'month' | 'year';

export interface SubscriptionItemTerms {
  priceId: string;
  /** Minor units per interval; null for tiered prices (excluded). */
  unitAmount: number | null;
  quantity: number;
  /** Null for a one-time price. */
  interval: Interval | null;
  intervalCount: number;
  usageType: 'licensed' | 'metered';
}

export interface DiscountTerms {
  couponId: string;
  percentOff: number | null;
  /** Minor units off each invoice. */
  amountOff: number | null;
  currency: string | null;
  duration: 'forever' | 'once' | 'repeating';
  /** ISO time the discount stops; null: never. */
  end: string | null;
}

export interface SubscriptionTerms {
  status: string;
  currency: string;
  /** ISO times. */
  start: string | null;
  trialEnd: string | null;
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
  endedAt: string | null;
  items: SubscriptionItemTerms[];
  discounts: DiscountTerms[];
}

const COUNTED_STATUSES = new Set(['active', 'past_due']);

export function monthlyFactor(interval: Interval, intervalCount: number): number {
  const count = Math.max(1, intervalCount);
  if (interval === 'month') return 1 / count;
  if (interval === 'year') return 1 / (12 * count);
  if (interval === 'week') return 52 / (12 * count);
  return 365 / (12 * count);
}

interface ItemLine {
  price_id: string;
  quantity: number;
  unit_amount: number | null;
  interval: Interval | null;
  interval_count: number;
  /** Null when the item is excluded (`excluded` says why). */
  monthly_amount: number | null;
  excluded: 'metered' | 'one_time' | 'tiered' | null;
}

interface DiscountLine {
  coupon_id: string;
  percent_off: number | null;
  amount_off: number | null;
  duration: DiscountTerms['duration'];
  /** What it takes off the month; 0 for a one-time or ended discount. */
  monthly_amount_off: number;
}

interface SubscriptionMrr {
  /** Integer, minor units. */
  mrr: number;
  /** Why the subscription adds nothing now; null when it counts. */
  excludedReason: 'trial' | 'not_active' | null;
  items: ItemLine[];
  discounts: DiscountLine[];
}

function itemLine(item: SubscriptionItemTerms): ItemLine {
  const base = {
    price_id: item.priceId,
    quantity: item.quantity,
    unit_amount: item.unitAmount,
    interval: item.interval,
    interval_count: item.intervalCount,
  };
  if (item.interval === null) return { ...base, monthly_amount: null, excluded: 'one_time' };
  if (item.usageType === 'metered') return { ...base, monthly_amount: null, excluded: 'metered' };
  if (item.unitAmount === null) return { ...base, monthly_amount: null, excluded: 'tiered' };
  return { ...base, monthly_amount: item.unitAmount * item.quantity * monthlyFactor(item.interval, item.intervalCount), excluded: null };
}

function isRecurring(discount: DiscountTerms, at: Date): boolean {
  if (discount.duration === 'once') return false;
  return discount.end === null || new Date(discount.end).getTime() > at.getTime();
}

/** Whether the subscription pays at `at` under the method (not a trial, a counted status, not yet ended). */
function excludedReason(terms: SubscriptionTerms, at: Date): SubscriptionMrr['excludedReason'] {
  if (terms.status === 'trialing') return 'trial';
  if (!COUNTED_STATUSES.has(terms.status)) return 'not_active';
  if (terms.start !== null && new Date(terms.start).getTime() > at.getTime()) return 'not_active';
  if (terms.trialEnd !== null && new Date(terms.trialEnd).getTime() > at.getTime()) return 'trial';
  if (terms.endedAt !== null && new Date(terms.endedAt).getTime() <= at.getTime()) return 'not_active';
  if (terms.cancelAtPeriodEnd && terms.currentPeriodEnd !== null && new Date(terms.currentPeriodEnd).getTime() <= at.getTime()) {
    return 'not_active';
  }
  return null;
}

/** The subscription's MRR at `at`, with the lines that make it up. */
export function subscriptionMrr(terms: SubscriptionTerms, at: Date): SubscriptionMrr {
  const items = terms.items.map(itemLine);
  const gross = items.reduce((sum, line) => sum + (line.monthly_amount ?? 0), 0);
  const billing = terms.items.find((item) => item.interval !== null && item.usageType === 'licensed');
  let net = gross;
  const discounts = terms.discounts.map((discount): DiscountLine => {
    let off = 0;
    if (isRecurring(discount, at)) {
      if (discount.percentOff !== null) off = (net * discount.percentOff) / 100;
      else if (discount.amountOff !== null && billing?.interval && (discount.currency ?? terms.currency) === terms.currency) {
        off = Math.min(net, discount.amountOff * monthlyFactor(billing.interval, billing.intervalCount));
      }
    }
    net -= off;
    return {
      coupon_id: discount.couponId,
      percent_off: discount.percentOff,
      amount_off: discount.amountOff,
      duration: discount.duration,
      monthly_amount_off: off,
    };
  });
  const reason = excludedReason(terms, at);
  return { mrr: reason === null ? Math.max(0, Math.round(net)) : 0, excludedReason: reason, items, discounts };
}

export type Movement = 'new' | 'expansion' | 'contraction' | 'churned' | 'reactivated';

/** How a customer's MRR in one currency moved between two syncs; null when it did not. */
export function classifyMovement(previous: number, next: number, paidBefore: boolean): Movement | null {
  if (previous === next) return null;
  if (previous === 0) return paidBefore ? 'reactivated' : 'new';
  if (next === 0) return 'churned';
  return next > previous ? 'expansion' : 'contraction';
}
