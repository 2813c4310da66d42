/**
 * The single table of plan limits and gates (spec: Limits). Code asks `planLimit(plan, 'labels')`
 * or `planAllows(plan, 'announcements')`, or declares `@RequiresFeature('waitlist_invites')`;
 * no plan name appears anywhere else. `null` as a limit means unlimited.
 *
 * Choices where the spec is silent (marked "ours"): subscriber caps, active keys per type, custom domains on Builder,
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
  /** Projects of one account; the account's plan is the highest plan among its live projects (ours). */
  readonly projectsPerAccount: number;
  /** Active (not revoked) secret keys per project; live and test-mode keys are counted apart (ours). */
  readonly activeSecretKeys: number;
  /** Active publishable keys per project, counted like secret keys (ours). */
  readonly activePublishableKeys: number;
  /**
   * Custom hostnames for the hosted changelog (ours; the spec shows no counts). The
   * `custom_domain` feature decides whether a plan has any (PLAN_UPGRADE_REQUIRED below it), this
   * number how many (CUSTOM_DOMAIN_LIMIT_REACHED); plans without the feature have 0.
   */
  readonly customDomains: number;
  /**
   * Payment-processor connections (spec: Limits): `account` allows one across all the account's
   * projects, `project` one per project; plans without the `revenue` feature have none.
   */
  readonly processorConnections: 'none' | 'account' | 'project';
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
  // The changelog widget without the "Powered by" badge (ours; `project.show_badge` false).
  'unbranded_widget',
  // Read-only revenue figures from a connected payment processor (ours: Indie and up, as the connection limit starts there).
  'revenue',
  // GET /v1/analytics/attribution (ours: Builder, next to after-reading).
  'attribution',
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
  'unbranded_widget',
  'revenue',
];
const BUILDER: readonly Feature[] = [...INDIE, 'segment_audience', 'after_reading', 'custom_domain', 'attribution'];

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
      activeSecretKeys: 5,
      activePublishableKeys: 5,
      customDomains: 0,
      processorConnections: 'none',
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
      activeSecretKeys: 10,
      activePublishableKeys: 10,
      customDomains: 0,
      processorConnections: 'account',
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
      activeSecretKeys: 20,
      activePublishableKeys: 20,
      customDomains: 5,
      processorConnections: 'project',
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
      activeSecretKeys: 50,
      activePublishableKeys: 50,
      customDomains: 20,
      processorConnections: 'project',
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
  /** Spec (Limits, Slug): two counted changes per 30 days; a released slug is held 30 days. */
  slugChangesPerWindow: 2,
  slugChangeWindowDays: 30,
  slugHoldDays: 30,
  /** Waitlist invite waves per project per minute (ours; the spec lists 429 without a number). */
  waitlistInviteWavesPerMinute: 20,
  /**
   * What one client address (an IPv6 /64) may add to one changelog entry's numbers per UTC hour
   * (ours): views (widget and hosted page together), anonymous first reads, button clicks (widget
   * and hosted page together) and reactions of client ids. Past a cap the call answers as usual
   * and the number stays; signed-in readers and their reactions are not capped.
   */
  engagementPerAddressPerEntryPerHour: {
    views: 60,
    anonymousReaders: 20,
    ctaClicks: 20,
    anonymousReactions: 20,
  },
} as const;

export function isPlanName(value: unknown): value is PlanName {
  return typeof value === 'string' && (PLAN_NAMES as readonly string[]).includes(value);
}

export function planLimit<K extends keyof PlanLimits>(plan: PlanName, limit: K): PlanLimits[K] {
  return PLANS[plan].limits[limit];
}

/** Active keys of a type a project (or its test-mode twin) may hold at once. */
export function activeKeyLimit(plan: PlanName, type: 'secret' | 'publishable'): number {
  return planLimit(plan, type === 'secret' ? 'activeSecretKeys' : 'activePublishableKeys');
}

/** The highest of the plans (in PLAN_NAMES order); `free` for none. */
export function highestPlan(plans: readonly PlanName[]): PlanName {
  return plans.reduce<PlanName>((best, plan) => (PLAN_NAMES.indexOf(plan) > PLAN_NAMES.indexOf(best) ? plan : best), 'free');
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
