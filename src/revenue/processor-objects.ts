import type { DiscountTerms, Interval, SubscriptionItemTerms, SubscriptionTerms } from './mrr';

/** The processor's objects, narrowed to the fields the sync reads (the processor's wire names). */
export interface ProcessorCustomer {
  id: string;
  email?: string | null;
  metadata?: Record<string, string> | null;
  deleted?: boolean;
  created?: number;
}

interface ProcessorCoupon {
  id: string;
  percent_off?: number | null;
  amount_off?: number | null;
  currency?: string | null;
  duration?: string;
}

interface ProcessorDiscount {
  id?: string;
  coupon?: ProcessorCoupon | null;
  source?: { coupon?: ProcessorCoupon | string | null } | null;
  end?: number | null;
}

interface ProcessorSubscriptionItem {
  quantity?: number | null;
  current_period_end?: number | null;
  price: {
    id: string;
    unit_amount?: number | null;
    recurring?: { interval: Interval; interval_count?: number; usage_type?: string } | null;
  };
}

export interface ProcessorSubscription {
  id: string;
  customer: string | { id: string };
  status: string;
  currency: string;
  start_date?: number | null;
  trial_end?: number | null;
  current_period_end?: number | null;
  cancel_at_period_end?: boolean;
  ended_at?: number | null;
  items: { data: ProcessorSubscriptionItem[] };
  discounts?: Array<ProcessorDiscount | string> | null;
}

export interface ProcessorInvoice {
  id: string;
  customer: string | { id: string } | null;
  status: string | null;
  currency: string;
  amount_paid: number;
  status_transitions?: { paid_at?: number | null } | null;
}

export interface ProcessorEvent {
  id: string;
  type: string;
  created: number;
  data: { object: { id?: string; object?: string } };
}

const iso = (seconds: number | null | undefined): string | null => (seconds ? new Date(seconds * 1000).toISOString() : null);

export const idOf = (value: string | { id: string } | null): string | null =>
  value === null ? null : typeof value === 'string' ? value : value.id;

function discountTerms(discount: ProcessorDiscount | string): DiscountTerms | null {
  // An id only (not expanded): nothing to deduct from; the sync always asks for them expanded.
  if (typeof discount === 'string') return null;
  const sourceCoupon = discount.source?.coupon;
  const coupon = discount.coupon ?? (typeof sourceCoupon === 'object' ? sourceCoupon : null);
  if (!coupon) return null;
  const duration = coupon.duration === 'forever' || coupon.duration === 'repeating' ? coupon.duration : 'once';
  return {
    couponId: coupon.id,
    percentOff: coupon.percent_off ?? null,
    amountOff: coupon.amount_off ?? null,
    currency: coupon.currency ?? null,
    duration,
    end: iso(discount.end),
  };
}

function itemTerms(item: ProcessorSubscriptionItem): SubscriptionItemTerms {
  const recurring = item.price.recurring ?? null;
  return {
    priceId: item.price.id,
    unitAmount: item.price.unit_amount ?? null,
    quantity: item.quantity ?? 1,
    interval: recurring?.interval ?? null,
    intervalCount: recurring?.interval_count ?? 1,
    usageType: recurring?.usage_type === 'metered' ? 'metered' : 'licensed',
  };
}

export function subscriptionTerms(subscription: ProcessorSubscription): SubscriptionTerms {
  const items = subscription.items.data;
  // Newer API versions carry the period on each item; older ones on the subscription.
  const periodEnd = subscription.current_period_end ?? items.find((item) => item.current_period_end)?.current_period_end ?? null;
  return {
    status: subscription.status,
    currency: subscription.currency.toLowerCase(),
    start: iso(subscription.start_date),
    trialEnd: iso(subscription.trial_end),
    currentPeriodEnd: iso(periodEnd),
    cancelAtPeriodEnd: subscription.cancel_at_period_end === true,
    endedAt: iso(subscription.ended_at),
    items: items.map(itemTerms),
    discounts: (subscription.discounts ?? []).map(discountTerms).filter((terms): terms is DiscountTerms => terms !== null),
  };
}

export function paidAtOf(invoice: ProcessorInvoice): Date | null {
  const paidAt = invoice.status === 'paid' ? invoice.status_transitions?.paid_at : null;
  return paidAt ? new Date(paidAt * 1000) : null;
}
