import { FakeStripeReads } from '../support/fake-stripe-reads';
import { TestApp } from '../support/test-app';

const KEY = 'rk_live_attribution00001';

describe('GET /v1/analytics/attribution', () => {
  let stripe: FakeStripeReads;
  let t: TestApp;

  beforeAll(async () => {
    stripe = await FakeStripeReads.start();
    t = await TestApp.start({ env: { STRIPE_API_URL: stripe.url } });
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
  });
  afterEach(() => expect(stripe.writes).toEqual([]));

  /**
   * By hand: newsletter has 3 signups (2 confirmed, 2 identified, 1 paying 2000); twitter 1 (confirmed,
   * identified through the customer's email, paying 5000); one signup without a utm_source.
   */
  it('follows each signup to confirmation, identify and payment, per group', async () => {
    const seeded = await t.seedProject({ plan: 'builder' });
    const api = t.api.as(seeded.secretKey);
    t.clock.freeze('2026-10-10T00:00:00Z');
    for (const [email, utm] of [
      ['a1@example.com', 'newsletter'],
      ['a2@example.com', 'newsletter'],
      ['a3@example.com', 'newsletter'],
      ['b1@example.com', 'twitter'],
      ['c1@example.com', null],
    ] as const) {
      await api
        .post('/v1/waitlist/signups')
        .send({ email, ...(utm ? { source: { utm_source: utm } } : {}) })
        .expect(201);
    }
    await t.db.manager.query(
      `UPDATE waitlist_signups SET confirmed_at = '2026-10-11T00:00:00Z' WHERE project_id = $1 AND email = ANY($2::text[])`,
      [seeded.project.id, ['a1@example.com', 'a2@example.com', 'b1@example.com']],
    );
    for (const [userId, email] of [
      ['u1', 'a1@example.com'],
      ['u2', 'a2@example.com'],
      ['u4', 'b1@example.com'],
    ]) {
      await api.post('/v1/analytics/identify').send({ user_id: userId, email }).expect(200);
    }
    const subscription = (id: string, customer: string, amount: number) => ({
      id,
      object: 'subscription',
      customer,
      status: 'active',
      currency: 'usd',
      start_date: 1790000000,
      items: {
        data: [{ quantity: 1, price: { id: `price_${amount}`, unit_amount: amount, recurring: { interval: 'month', interval_count: 1 } } }],
      },
      discounts: [],
    });
    stripe.data.customers.push(
      { id: 'cus_1', object: 'customer', email: null, metadata: { user_id: 'u1' } },
      { id: 'cus_4', object: 'customer', email: 'b1@example.com', metadata: {} },
    );
    stripe.data.subscriptions.push(subscription('sub_1', 'cus_1', 2000), subscription('sub_4', 'cus_4', 5000));
    stripe.addKey(KEY);
    t.clock.freeze('2026-11-01T00:00:00Z');
    await api.put('/v1/revenue/connection').send({ key: KEY }).expect(200);
    await t.drainJobs();

    const res = await api
      .get('/v1/analytics/attribution?from=2026-10-01T00:00:00Z&to=2026-11-01T00:00:00Z&group_by=utm_source')
      .expect(200);
    expect(res.body.data).toEqual({
      from: '2026-10-01T00:00:00.000Z',
      to: '2026-11-01T00:00:00.000Z',
      group_by: 'utm_source',
      groups: [
        {
          value: 'newsletter',
          signups: 3,
          confirmed: 2,
          identified: 2,
          paying: 1,
          mrr: [{ currency: 'usd', mrr: 2000 }],
          confirmed_rate: 0.667,
          identified_rate: 0.667,
          paying_rate: 0.5,
          conversion_rate: 0.333,
        },
        {
          value: null,
          signups: 1,
          confirmed: 0,
          identified: 0,
          paying: 0,
          mrr: [],
          confirmed_rate: 0,
          identified_rate: 0,
          paying_rate: null,
          conversion_rate: 0,
        },
        {
          value: 'twitter',
          signups: 1,
          confirmed: 1,
          identified: 1,
          paying: 1,
          mrr: [{ currency: 'usd', mrr: 5000 }],
          confirmed_rate: 1,
          identified_rate: 1,
          paying_rate: 1,
          conversion_rate: 1,
        },
      ],
    });
    const bySource = await api
      .get('/v1/analytics/attribution?from=2026-10-01T00:00:00Z&to=2026-11-01T00:00:00Z&group_by=source')
      .expect(200);
    expect(bySource.body.data.groups).toEqual([expect.objectContaining({ value: 'api', signups: 5, paying: 2 })]);
    const bad = await api.get('/v1/analytics/attribution?group_by=country').expect(400);
    expect(bad.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'group_by' });
  });

  it('answers VALIDATION_ERROR naming the field for a date that is not on the calendar', async () => {
    const seeded = await t.seedProject({ plan: 'builder' });
    const api = t.api.as(seeded.secretKey);
    const res = await api.get('/v1/analytics/attribution?from=2026-02-31T00:00:00Z&to=2026-03-10T00:00:00Z').expect(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'from' });
    expect(res.body.error.remediation).toEqual(expect.any(String));
    const late = await api.get('/v1/analytics/attribution?from=2026-03-01T00:00:00Z&to=2026-04-31T00:00:00Z').expect(400);
    expect(late.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'to' });
  });

  it('syncs a customer whose metadata user_id and email are longer than any person’s: counted in MRR, matched to nobody', async () => {
    const seeded = await t.seedProject({ plan: 'builder' });
    const api = t.api.as(seeded.secretKey);
    const longUserId = 'u'.repeat(300);
    // The processor's account is this project's alone from here on.
    for (const list of Object.values(stripe.data)) list.length = 0;
    await api
      .post('/v1/analytics/identify')
      .send({ user_id: 'u'.repeat(256), email: 'long@example.com' })
      .expect(200);
    stripe.data.customers.push({
      id: 'cus_long',
      object: 'customer',
      email: `${'l'.repeat(290)}@example.com`,
      metadata: { user_id: longUserId },
    });
    stripe.data.subscriptions.push({
      id: 'sub_long',
      object: 'subscription',
      customer: 'cus_long',
      status: 'active',
      currency: 'usd',
      start_date: 1790000000,
      items: { data: [{ quantity: 1, price: { id: 'price_700', unit_amount: 700, recurring: { interval: 'month', interval_count: 1 } } }] },
      discounts: [],
    });
    const key = 'rk_live_attribution00002';
    stripe.addKey(key);
    await api.put('/v1/revenue/connection').send({ key }).expect(200);
    await t.drainJobs();

    const revenue = await api.get('/v1/revenue').expect(200);
    expect(revenue.body.data.currencies).toEqual([expect.objectContaining({ currency: 'usd', mrr: 700, paying_customers: 1 })]);
    const rows = await t.db.manager.query(`SELECT user_id, email, contact_id FROM revenue_customers WHERE project_id = $1`, [
      seeded.project.id,
    ]);
    expect(rows).toEqual([{ user_id: null, email: null, contact_id: null }]);
  });

  it('answers PLAN_UPGRADE_REQUIRED below Builder', async () => {
    const indie = await t.seedProject({ plan: 'indie' });
    const res = await t.api.as(indie.secretKey).get('/v1/analytics/attribution').expect(403);
    expect(res.body.error.code).toBe('PLAN_UPGRADE_REQUIRED');
  });
});
