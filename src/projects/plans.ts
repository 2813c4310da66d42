/**
 * The single table of plan limits and gates (spec: Limits). Code asks `planLimit(plan, 'labels')`
 * or `planAllows(plan, 'announcements')`, or declares `@RequiresFeature('waitlist_invites')`;
 * no plan name appears anywhere else. `null` as a limit means unlimited.
 *
 * Choices where the spec is silent (marked "ours"): subscriber caps, custom domains on Builder,
 * email notifications from Indie, and the `scale` plan, which the setup check allows: it has every
 * feature and limits at least Builder's.
 */
export const PLAN_NAMES = ['free', 'indie', 'builder', 'scale'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

/** Plans an owner can move to through the API; `INVALID_PLAN` names these. */
export const PURCHASABLE_PLANS = ['indie', 'builder'] as const satisfies readonly PlanName[];

export interface PlanLimits {
  /** Published changelog entries in total; drafts do not count. */
  readonly changelogPublishedEntries: number | null;
  /** Changelog email subscribers (ours). */
  readonly subscribers: number | null;
  readonly labels: number;
  readonly webhookEndpoints: number;
  /** Per UTC calendar month; a group or broadcast counts once. */
  readonly notificationsPerMonth: number;
  readonly bellPollIntervalSeconds: number;
  readonly bellReadsPerUserPerHour: number;
  readonly projectsPerAccount: number;
  /**
   * Custom hostnames for the hosted changelog (ours; the spec shows no counts). The
   * `custom_domain` feature decides whether a plan has any (PLAN_UPGRADE_REQUIRED below it), this
   * number how many (CUSTOM_DOMAIN_LIMIT_REACHED); plans without the feature have 0.
   */
  readonly customDomains: number;
}

export const FEATURES = [
  'changelog',
  'waitlist',
  'feedback',
  'notifications',
  'email_notifications',
  'custom_domain',
  'announcements',
  'segment_audience',
  'entry_insights',
  'after_reading',
  'webhooks',
  'waitlist_invites',
  'waitlist_resend_confirmation',
] as const;
export type Feature = (typeof FEATURES)[number];

interface PlanDefinition {
  readonly description: string;
  readonly limits: PlanLimits;
  readonly features: readonly Feature[];
}

const CORE: readonly Feature[] = ['changelog', 'waitlist', 'feedback', 'notifications'];
const INDIE: readonly Feature[] = [
  ...CORE,
  'email_notifications',
  'announcements',
  'entry_insights',
  'webhooks',
  'waitlist_invites',
  'waitlist_resend_confirmation',
];
const BUILDER: readonly Feature[] = [...INDIE, 'segment_audience', 'after_reading', 'custom_domain'];

export const PLANS: Readonly<Record<PlanName, PlanDefinition>> = {
  free: {
    description: 'Free: changelog (25 published entries), waitlist, feedback and an in-app bell for small launches.',
    limits: {
      changelogPublishedEntries: 25,
      subscribers: 1_000,
      labels: 5,
      webhookEndpoints: 0,
      notificationsPerMonth: 1_000,
      bellPollIntervalSeconds: 60,
      bellReadsPerUserPerHour: 180,
      projectsPerAccount: 2,
      customDomains: 0,
    },
    features: CORE,
  },
  indie: {
    description: 'Indie: unlimited changelog, subscriber emails, announcements, webhooks and waitlist invites.',
    limits: {
      changelogPublishedEntries: null,
      subscribers: 10_000,
      labels: 20,
      webhookEndpoints: 2,
      notificationsPerMonth: 20_000,
      bellPollIntervalSeconds: 20,
      bellReadsPerUserPerHour: 540,
      projectsPerAccount: 4,
      customDomains: 0,
    },
    features: INDIE,
  },
  builder: {
    description: 'Builder: everything in Indie plus segments, after-reading outcomes and custom domains.',
    limits: {
      changelogPublishedEntries: null,
      subscribers: null,
      labels: 100,
      webhookEndpoints: 5,
      notificationsPerMonth: 200_000,
      bellPollIntervalSeconds: 15,
      bellReadsPerUserPerHour: 720,
      projectsPerAccount: 10,
      customDomains: 5,
    },
    features: BUILDER,
  },
  scale: {
    description: 'Scale: everything in Builder with higher volumes, arranged with us.',
    limits: {
      changelogPublishedEntries: null,
      subscribers: null,
      labels: 500,
      webhookEndpoints: 20,
      notificationsPerMonth: 2_000_000,
      bellPollIntervalSeconds: 15,
      bellReadsPerUserPerHour: 1_440,
      projectsPerAccount: 50,
      customDomains: 20,
    },
    features: BUILDER,
  },
};

/** Limits that are the same on every plan. */
export const PLATFORM_LIMITS = {
  browserCallsPerMinutePerIp: 120,
  /** Unknown API keys per minute per IP before 429 (ours): guessing keys costs no database lookup. */
  failedKeyLookupsPerMinutePerIp: 30,
  idempotencyRetentionHours: 24,
  idempotencyKeyMaxLength: 80,
  /** Active keys per project and type (ours; the spec leaves the count open). */
  activeKeysPerType: 10,
  /** Waitlist invite waves per project per minute (ours; the spec lists 429 without a number). */
  waitlistInviteWavesPerMinute: 20,
} as const;

export function isPlanName(value: unknown): value is PlanName {
  return typeof value === 'string' && (PLAN_NAMES as readonly string[]).includes(value);
}

export function planLimit<K extends keyof PlanLimits>(plan: PlanName, limit: K): PlanLimits[K] {
  return PLANS[plan].limits[limit];
}

export function planAllows(plan: PlanName, feature: Feature): boolean {
  return PLANS[plan].features.includes(feature);
}

/** The cheapest plan with the feature, for "upgrade to …" messages. */
export function minimumPlanFor(feature: Feature): PlanName {
  const plan = PLAN_NAMES.find((name) => planAllows(name, feature));
  if (!plan) throw new Error(`No plan offers ${feature}`);
  return plan;
}

/** The next plan up, or null at the top of the purchasable range. */
export function nextPlan(plan: PlanName): PlanName | null {
  if (plan === 'free') return 'indie';
  if (plan === 'indie') return 'builder';
  return null;
}
