import { BillingAccountEntity } from '../../src/billing/entities/billing-account.entity';
import { BillingEventEntity } from '../../src/billing/entities/billing-event.entity';
import { ProjectEntity } from '../../src/projects/entities/project.entity';
import { ProjectsService } from '../../src/projects/projects.service';
import { FakeStripe } from '../support/fake-stripe';
import { TestApp } from '../support/test-app';

const NOW = Math.floor(Date.now() / 1000);
let eventCounter = 0;

function event(type: string, object: object, created = NOW): object {
  eventCounter += 1;
  return { id: `evt_test_${eventCounter}_${Math.random().toString(36).slice(2, 8)}`, object: 'event', type, created, data: { object } };
}

function checkoutCompleted(projectId: string, plan: string, customer: string, created = NOW): object {
  return event(
    'checkout.session.completed',
    {
      id: `cs_${customer}`,
      object: 'checkout.session',
      mode: 'subscription',
      status: 'complete',
      client_reference_id: projectId,
      customer,
      subscription: `sub_${customer}`,
      metadata: { project_id: projectId, plan },
    },
    created,
  );
}

function subscriptionEvent(
  type: 'updated' | 'deleted',
  customer: string,
  fields: { status?: string; price?: string; projectId?: string; subscription?: string },
  created = NOW,
): object {
  return event(
    `customer.subscription.${type}`,
    {
      id: fields.subscription ?? `sub_${customer}`,
      object: 'subscription',
      customer,
      status: fields.status ?? 'active',
      metadata: fields.projectId ? { project_id: fields.projectId } : {},
      items: { object: 'list', data: [{ id: 'si_1', price: { id: fields.price ?? 'price_indie_monthly' } }] },
    },
    created,
  );
}

describe('POST /v1/billing/webhook', () => {
  let stripe: FakeStripe;
  let t: TestApp;

  beforeAll(async () => {
    stripe = await FakeStripe.start();
    t = await TestApp.start({ env: stripe.env() });
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
  });

  function deliver(payload: object, secret?: string, signedAt?: number) {
    const { body, signature } = stripe.signedEvent(payload, secret, signedAt);
    return t.api.post('/v1/billing/webhook').set('Content-Type', 'application/json').set('Stripe-Signature', signature).send(body);
  }
  const planOf = async (projectId: string) => (await t.db.manager.findOneByOrFail(ProjectEntity, { id: projectId })).plan;

  it('sets the plan on checkout completion and records the customer', async () => {
    const { project } = await t.seedProject();
    const res = await deliver(checkoutCompleted(project.id, 'builder', 'cus_A1')).expect(200);
    expect(res.body).toEqual({ data: { received: true, outcome: 'applied' }, error: null });
    expect(await planOf(project.id)).toBe('builder');
    expect(await t.db.manager.findOneByOrFail(BillingAccountEntity, { projectId: project.id })).toMatchObject({
      customerId: 'cus_A1',
      subscriptionId: 'sub_cus_A1',
      subscriptionStatus: 'active',
    });
  });

  it('the new plan is in effect for the project at once (its keys see it)', async () => {
    const seeded = await t.seedProject();
    await t.api.as(seeded.secretKey).get('/v1/setup-check').expect(200); // warms the key cache
    await deliver(checkoutCompleted(seeded.project.id, 'indie', 'cus_cache')).expect(200);
    const check = await t.api.as(seeded.secretKey).get('/v1/setup-check').expect(200);
    expect(check.body.data.plan).toBe('indie');
  });

  it('follows subscription changes by price, and cancellation back to free (found by customer id)', async () => {
    const { project } = await t.seedProject();
    await deliver(checkoutCompleted(project.id, 'indie', 'cus_B1', NOW - 30)).expect(200);
    await deliver(subscriptionEvent('updated', 'cus_B1', { price: 'price_builder_monthly' }, NOW - 20)).expect(200);
    expect(await planOf(project.id)).toBe('builder');
    await deliver(subscriptionEvent('updated', 'cus_B1', { status: 'past_due', price: 'price_builder_monthly' }, NOW - 10)).expect(200);
    expect(await planOf(project.id)).toBe('builder');
    const deleted = await deliver(subscriptionEvent('deleted', 'cus_B1', { status: 'canceled' }, NOW)).expect(200);
    expect(deleted.body.data.outcome).toBe('applied');
    expect(await planOf(project.id)).toBe('free');
    expect((await t.db.manager.findOneByOrFail(BillingAccountEntity, { projectId: project.id })).subscriptionStatus).toBe('canceled');
  });

  it('applies a replayed event once: the replay answers duplicate and changes nothing', async () => {
    const { project } = await t.seedProject();
    const completed = checkoutCompleted(project.id, 'indie', 'cus_C1', NOW - 10);
    await deliver(completed).expect(200);
    await t.get(ProjectsService).setPlan(project.id, 'scale'); // an operator's change in between
    const replay = await deliver(completed).expect(200);
    expect(replay.body.data.outcome).toBe('duplicate');
    expect(await planOf(project.id)).toBe('scale');
    expect(await t.db.manager.countBy(BillingEventEntity, { id: (completed as { id: string }).id })).toBe(1);
  });

  it('applies concurrent deliveries of one event once', async () => {
    const { project } = await t.seedProject();
    const completed = checkoutCompleted(project.id, 'indie', 'cus_race');
    const results = await Promise.all([1, 2, 3].map(() => deliver(completed)));
    expect(results.map((res) => res.status)).toEqual([200, 200, 200]);
    expect(results.map((res) => res.body.data.outcome).sort()).toEqual(['applied', 'duplicate', 'duplicate']);
  });

  it('resolves out-of-order events by their created time: an older event never undoes a newer one', async () => {
    const { project } = await t.seedProject();
    await deliver(checkoutCompleted(project.id, 'indie', 'cus_D1', NOW - 100)).expect(200);
    await deliver(subscriptionEvent('deleted', 'cus_D1', {}, NOW - 10)).expect(200);
    const late = await deliver(subscriptionEvent('updated', 'cus_D1', { price: 'price_builder_monthly' }, NOW - 50)).expect(200);
    expect(late.body.data.outcome).toBe('stale');
    expect(await planOf(project.id)).toBe('free');
    expect(await t.db.manager.countBy(BillingEventEntity, { projectId: project.id, outcome: 'stale' })).toBe(1);
  });

  it('ignores the end of an old subscription after a new one began', async () => {
    const { project } = await t.seedProject();
    await deliver(checkoutCompleted(project.id, 'builder', 'cus_E1', NOW - 20)).expect(200);
    const old = await deliver(subscriptionEvent('deleted', 'cus_E1', { subscription: 'sub_old_one' }, NOW)).expect(200);
    expect(old.body.data.outcome).toBe('ignored');
    expect(await planOf(project.id)).toBe('builder');
  });

  it('acknowledges events about no known project, other event types and unknown prices without changes', async () => {
    const { project } = await t.seedProject({ plan: 'indie' });
    const unknownCustomer = await deliver(subscriptionEvent('updated', 'cus_nobody', {})).expect(200);
    expect(unknownCustomer.body.data.outcome).toBe('ignored');
    const otherType = await deliver(event('invoice.paid', { id: 'in_1', object: 'invoice' })).expect(200);
    expect(otherType.body.data.outcome).toBe('ignored');
    const foreignMetadata = await deliver(checkoutCompleted('prj_NOT_A_REAL_PROJECT_ID_AT_ALL', 'builder', 'cus_F0')).expect(200);
    expect(foreignMetadata.body.data.outcome).toBe('ignored');
    await deliver(checkoutCompleted(project.id, 'indie', 'cus_F1', NOW - 10)).expect(200);
    await deliver(subscriptionEvent('updated', 'cus_F1', { price: 'price_someone_else' })).expect(200);
    expect(await planOf(project.id)).toBe('indie');
  });

  it('refuses a bad or missing signature with 400 and the envelope, changing nothing', async () => {
    const { project } = await t.seedProject();
    const payload = checkoutCompleted(project.id, 'builder', 'cus_G1');
    const wrongSecret = await deliver(payload, 'whsec_someone_else').expect(400);
    expect(wrongSecret.body).toMatchObject({ data: null, error: { code: 'VALIDATION_ERROR', param: 'Stripe-Signature' } });
    expect(wrongSecret.body.error.request_id).toMatch(/^req_/);
    const { body, signature } = stripe.signedEvent(payload);
    const tampered = await t.api
      .post('/v1/billing/webhook')
      .set('Content-Type', 'application/json')
      .set('Stripe-Signature', signature)
      .send(body.replace('builder', 'scale'))
      .expect(400);
    expect(tampered.body.error.code).toBe('VALIDATION_ERROR');
    const missing = await t.api.post('/v1/billing/webhook').send(payload).expect(400);
    expect(missing.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'Stripe-Signature' });
    expect(await planOf(project.id)).toBe('free');
    expect(await t.db.manager.countBy(BillingEventEntity, { id: (payload as { id: string }).id })).toBe(0);
  });

  it('refuses a signature made more than 5 minutes ago or ahead with the same answer, and allows skew within that', async () => {
    const { project } = await t.seedProject();
    const now = Math.floor(t.clock.now().getTime() / 1000);
    const message = 'The Stripe-Signature header does not match the body, or its timestamp is not within 5 minutes of now.';
    for (const signedAt of [now - 301, now + 301, now + 86_400]) {
      const payload = checkoutCompleted(project.id, 'builder', `cus_T${signedAt}`);
      const res = await deliver(payload, undefined, signedAt).expect(400);
      expect(res.body).toMatchObject({ data: null, error: { code: 'VALIDATION_ERROR', param: 'Stripe-Signature', message } });
      expect(await t.db.manager.countBy(BillingEventEntity, { id: (payload as { id: string }).id })).toBe(0);
    }
    expect(await planOf(project.id)).toBe('free');

    const ahead = await deliver(checkoutCompleted(project.id, 'indie', 'cus_T_skew'), undefined, now + 120).expect(200);
    expect(ahead.body.data).toEqual({ received: true, outcome: 'applied' });
    expect(await planOf(project.id)).toBe('indie');
  });
});
