import { BillingAccountEntity } from '../../src/billing/entities/billing-account.entity';
import { newId } from '../../src/common/ids/ids';
import { ProjectEntity } from '../../src/projects/entities/project.entity';
import type { PlanName } from '../../src/projects/plans';
import { mailsOf, subscriberLinkIn, tokenOf } from '../changelog/subscribers-test-helpers';
import { seedEntry, seedLabel } from '../support/changelog-seed';
import type { DashboardOwner } from '../support/dashboard-owner';
import type { TestIdentityProvider } from '../support/identity-provider';
import { seedNotification } from '../support/notification-seed';
import type { TestApp } from '../support/test-app';

export interface ExampleContext {
  t: TestApp;
  /** A signed-in owner and their project, with its keys; every example runs on a project of its own. */
  owner: DashboardOwner;
  idp: TestIdentityProvider;
  /** The name of the example being run (`example` for a lone one). */
  example: string;
}

export interface ExampleFixture {
  /** The project's plan; default builder, which offers every feature the examples show. */
  plan?: PlanName;
  /** Seeds what the example needs; answers the path (and required query) parameters by name. */
  prepare?: (context: ExampleContext) => Promise<Record<string, string> | void>;
  /** Another bearer token than the one the operation's security names (a new user, say). */
  token?: (context: ExampleContext) => string;
  /** The status expected, when the operation documents more than one success. */
  status?: number;
}

/** The restricted processor key the revenue connection examples show; the fake processor knows it. */
export const EXAMPLE_PROCESSOR_KEY = 'rk_live_51NxExampleRestrictedKey0000000000';

const projectId = (context: ExampleContext) => context.owner.projectId;

async function labels(context: ExampleContext, ...slugs: string[]): Promise<void> {
  for (const slug of slugs) await seedLabel(context.t, projectId(context), { slug });
}

async function slug(context: ExampleContext): Promise<Record<string, string>> {
  const project = await context.t.db.manager.findOneByOrFail(ProjectEntity, { id: projectId(context) });
  return { slug: project.slug, project_slug: project.slug };
}

async function publishedEntry(context: ExampleContext): Promise<Record<string, string>> {
  return { id: (await seedEntry(context.t, projectId(context))).id };
}

async function bellNotification(context: ExampleContext): Promise<Record<string, string>> {
  const row = await seedNotification(context.t, projectId(context), { userId: 'user_42', reactions: ['like', 'celebrate'] });
  return { id: row.id };
}

/** A subscriber who signed up in a browser, with the token of the "choose your topics" link they were mailed. */
async function subscriber(context: ExampleContext): Promise<Record<string, string>> {
  await labels(context, 'api', 'billing');
  const res = await context.t.api
    .as(context.owner.publishableKey)
    .post('/v1/changelog/subscribers')
    .send({ email: 'grace@example.com' })
    .expect(201);
  const [mail] = await mailsOf(context.t, projectId(context), 'changelog.subscriber_confirmation');
  const token = tokenOf(subscriberLinkIn(mail.textBody, 'preferences'));
  return { subscriber_id: res.body.data.id, token };
}

async function signup(context: ExampleContext): Promise<void> {
  await context.t.api.as(context.owner.secretKey).post('/v1/waitlist/signups').send({ email: 'ada@example.com' }).expect(201);
}

async function webhook(context: ExampleContext): Promise<Record<string, string>> {
  const res = await context.t.api
    .as(context.owner.secretKey)
    .post('/v1/webhooks')
    .send({ url: 'https://example.com/webhooks/launch', events: ['*'] })
    .expect(201);
  return { id: res.body.data.id };
}

/** The processor's customer of a project that has paid once (written as its webhook would). */
async function billingAccount(context: ExampleContext): Promise<void> {
  const now = context.t.clock.now();
  await context.t.db.manager.insert(BillingAccountEntity, {
    projectId: projectId(context),
    customerId: `cus_${projectId(context).slice(-8)}`,
    subscriptionId: `sub_${projectId(context).slice(-8)}`,
    subscriptionStatus: 'active',
    lastEventAt: now,
    createdAt: now,
    updatedAt: now,
  });
}

/** A paying user who agreed to product updates, as the contacts sync writes one. */
async function payingContact(context: ExampleContext): Promise<void> {
  await context.t.db.manager.query(
    `INSERT INTO contacts (id, project_id, email, user_id, stage, consents, details, paying, created_at, updated_at)
     VALUES ($1, $2, 'ada@example.com', 'user_42', 'user', $3::jsonb, '{"plan": "pro"}'::jsonb, true, now(), now())`,
    [newId('ct'), projectId(context), JSON.stringify({ product_updates: { status: 'granted', updated_at: '2026-01-05T10:00:00Z' } })],
  );
}

/** One row per operation whose request body has an example. */
export const REQUEST_EXAMPLE_FIXTURES: Record<string, ExampleFixture> = {
  recordPageSeen: { prepare: slug },
  identify: {},
  provision: { token: (context) => context.idp.token({ sub: `new-user-${context.owner.accountId}` }) },
  createDraft: { status: 201 },
  createEntry: { prepare: (context) => labels(context, 'export') },
  updateEntry: {
    prepare: async (context) => {
      await labels(context, 'export');
      return { id: (await seedEntry(context.t, projectId(context), { status: 'draft', publishedAt: null })).id };
    },
  },
  createLabel: {},
  updateLabel: { prepare: async (context) => ({ id: (await seedLabel(context.t, projectId(context), { slug: 'export' })).id }) },
  updateChangelogSettings: {},
  createSubscriber: { prepare: (context) => labels(context, 'api', 'mobile') },
  setSubscriberLabelsByToken: { prepare: subscriber },
  saveSubscriberPreferences: { prepare: subscriber },
  setSubscriberLabels: { prepare: subscriber },
  recordWidgetClick: { prepare: publishedEntry },
  takeBackReaction: { prepare: publishedEntry },
  reactToEntry: { prepare: publishedEntry },
  recordWidgetSeen: {},
  createCheckout: { plan: 'free' },
  createPortalSession: { prepare: billingAccount },
  dashboardSetSubscriberLabels: { prepare: subscriber },
  createDomain: {},
  putEmailTemplate: { prepare: async () => ({ name: 'waitlist_confirmation' }) },
  previewEmailTemplate: { prepare: async () => ({ name: 'waitlist_confirmation' }) },
  createKey: {},
  createProject: {},
  updateProject: { prepare: async (context) => ({ id: projectId(context) }) },
  connectDashboardProcessor: {},
  createFeedback: {},
  createNotification: { prepare: async (context) => (context.example === 'contacts' ? payingContact(context) : undefined) },
  previewAudience: {},
  markAllRead: {},
  updateNotificationSettings: {},
  archiveNotification: { prepare: bellNotification },
  markClicked: { prepare: bellNotification },
  addReaction: { prepare: bellNotification },
  markRead: { prepare: bellNotification },
  connectProcessor: {},
  inviteSignups: { prepare: async (context) => (context.example === 'specific_email' ? signup(context) : undefined) },
  createSignup: {},
  resendConfirmation: {
    prepare: async (context) => {
      await signup(context);
      context.t.clock.advance(5 * 60_000); // one confirmation email per address every 5 minutes
    },
  },
  createWebhook: {},
  updateWebhook: { prepare: webhook },
  recoverDeliveries: { prepare: webhook },
  submitSignupForm: { prepare: slug },
};

/** Operations whose examples cannot run in a test, with the reason. */
export const NOT_RUNNABLE: Record<string, string> = {};
