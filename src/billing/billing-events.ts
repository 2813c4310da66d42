import { PURCHASABLE_PLANS, type PlanName } from '../projects/plans';

/** The provider events that move a plan; others are acknowledged and ignored. */
const HANDLED_EVENT_TYPES = ['checkout.session.completed', 'customer.subscription.updated', 'customer.subscription.deleted'] as const;
type HandledEventType = (typeof HANDLED_EVENT_TYPES)[number];

export type PurchasablePlan = (typeof PURCHASABLE_PLANS)[number];
type PriceIds = Readonly<Record<PurchasablePlan, string>>;

/** The part of a provider event this service reads (the package's `Stripe.Event`, loosely typed). */
export interface ProviderEvent {
  id: string;
  type: string;
  /** Unix seconds. */
  created: number;
  data: { object: Record<string, unknown> };
}

/** What an event says about one project's billing. `plan: null` leaves the plan as it is. */
export interface BillingUpdate {
  /** From our own metadata on the session or subscription; null: find it by customer id. */
  projectId: string | null;
  customerId: string | null;
  subscriptionId: string | null;
  subscriptionStatus: string | null;
  plan: PlanName | null;
}

// A subscription in these states pays for its plan (past_due keeps it while the provider retries).
const PAYING_STATUSES = new Set(['active', 'trialing', 'past_due']);
// These end it; `incomplete` and `paused` change nothing until the provider decides.
const ENDED_STATUSES = new Set(['canceled', 'unpaid', 'incomplete_expired']);

export function isHandledEventType(type: string): type is HandledEventType {
  return (HANDLED_EVENT_TYPES as readonly string[]).includes(type);
}

export function isPurchasablePlan(value: unknown): value is PurchasablePlan {
  return typeof value === 'string' && (PURCHASABLE_PLANS as readonly string[]).includes(value);
}

/** The plan a price id buys, or null for a price this server does not sell. */
export function planOfPrice(prices: PriceIds, priceId: unknown): PurchasablePlan | null {
  return PURCHASABLE_PLANS.find((plan) => prices[plan] === priceId) ?? null;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
// Expanded objects carry their id; unexpanded references are the id itself.
const ref = (value: unknown): string | null =>
  text(value) ?? (value && typeof value === 'object' ? text((value as { id?: unknown }).id) : null);
const metadataOf = (object: Record<string, unknown>): Record<string, unknown> =>
  object.metadata && typeof object.metadata === 'object' ? (object.metadata as Record<string, unknown>) : {};

function firstPriceId(subscription: Record<string, unknown>): unknown {
  const items = subscription.items as { data?: { price?: { id?: unknown } }[] } | undefined;
  return items?.data?.[0]?.price?.id;
}

function fromCheckout(session: Record<string, unknown>): BillingUpdate | null {
  // Only sessions this server opened: subscription mode, with our project and plan attached.
  if (session.mode !== 'subscription' || session.status !== 'complete') return null;
  const metadata = metadataOf(session);
  const plan = metadata.plan;
  return {
    projectId: text(session.client_reference_id) ?? text(metadata.project_id),
    customerId: ref(session.customer),
    subscriptionId: ref(session.subscription),
    subscriptionStatus: 'active',
    plan: isPurchasablePlan(plan) ? plan : null,
  };
}

function fromSubscription(subscription: Record<string, unknown>, prices: PriceIds, deleted: boolean): BillingUpdate {
  const status = deleted ? 'canceled' : (text(subscription.status) ?? null);
  let plan: PlanName | null = null;
  if (deleted || (status && ENDED_STATUSES.has(status))) plan = 'free';
  else if (status && PAYING_STATUSES.has(status)) plan = planOfPrice(prices, firstPriceId(subscription));
  return {
    projectId: text(metadataOf(subscription).project_id),
    customerId: ref(subscription.customer),
    subscriptionId: text(subscription.id),
    subscriptionStatus: status,
    plan,
  };
}

/** Reads one event; null when it does not concern our plans. */
export function billingUpdateOf(event: ProviderEvent, prices: PriceIds): BillingUpdate | null {
  const object = event.data.object;
  switch (event.type) {
    case 'checkout.session.completed':
      return fromCheckout(object);
    case 'customer.subscription.updated':
      return fromSubscription(object, prices, false);
    case 'customer.subscription.deleted':
      return fromSubscription(object, prices, true);
    default:
      return null;
  }
}
