import { runCommand } from '../../src/cli/cli-commands';
import { RevenueCustomerEntity } from '../../src/revenue/entities/revenue-customer.entity';
import { RevenueSubscriptionEntity } from '../../src/revenue/entities/revenue-subscription.entity';
import { INCREMENTAL_INTERVAL_MS } from '../../src/revenue/revenue-syncs.service';
import { ProjectsService } from '../../src/projects/projects.service';
import { FakeStripeReads } from '../support/fake-stripe-reads';
import { type SeededProject, TestApp } from '../support/test-app';

const KEY = 'rk_live_fixture00000001';
const T1 = new Date('2026-11-10T00:00:00Z');
const T2 = new Date('2026-11-15T00:00:00Z');
const unix = (iso: string) => Math.floor(new Date(iso).getTime() / 1000);

function price(id: string, unitAmount: number, interval: string | null, usage = 'licensed') {
  return { id, unit_amount: unitAmount, recurring: interval ? { interval, interval_count: 1, usage_type: usage } : null };
}

function subscription(
  id: string,
  customer: string,
  fields: Record<string, unknown>,
  items: Array<{ price: object; quantity?: number; current_period_end?: number }>,
) {
  return {
    id,
    object: 'subscription',
    customer,
    status: 'active',
    currency: 'usd',
    cancel_at_period_end: false,
    ended_at: null,
    trial_end: null,
    discounts: [],
    items: { object: 'list', data: items.map((item) => ({ quantity: 1, current_period_end: unix('2026-12-01'), ...item })) },
    ...fields,
  };
}

const coupon = (id: string, fields: Record<string, unknown>) => ({ id: `di_${id}`, coupon: { id, ...fields }, end: null });

/**
 * The fixture, with each subscription's MRR worked out by hand (minor units):
 *   a  monthly 2000 × 1                                   = 2000  (upgraded to 5000 before T2: expansion 3000)
 *   b  yearly 24000 × 3 ÷ 12, started Nov 3                = 6000  (new in November; 2 seats before T2: 4000, contraction 2000)
 *   c  monthly 4000, 25 % forever, a once-only 50 % ignored, past due = 3000
 *   d  monthly 3000, 500 off repeating, cancelled at the period end (Nov 12) = 2500 (churned 2500 on Nov 12)
 *   e  trialing until Nov 20                                = 0
 *   f  EUR monthly 1500 × 2, plus a metered item (excluded) = 3000 EUR
 *   g  weekly 700 × 52 ÷ 12 = 3033.33                       = 3033
 *   h  (before T2) monthly 1200, started Nov 14             = 1200 (new)
 */
function seedFixture(stripe: FakeStripeReads): void {
  stripe.data.customers.push(
    { id: 'cus_a', object: 'customer', email: null, metadata: { user_id: 'u_a' }, created: unix('2026-09-01') },
    { id: 'cus_b', object: 'customer', email: 'B@Example.com', metadata: {}, created: unix('2026-11-03') },
    { id: 'cus_c', object: 'customer', email: 'c@example.com', metadata: {}, created: unix('2026-10-01') },
    { id: 'cus_d', object: 'customer', email: null, metadata: {}, created: unix('2026-06-01') },
    { id: 'cus_e', object: 'customer', email: null, metadata: {}, created: unix('2026-11-06') },
    { id: 'cus_f', object: 'customer', email: null, metadata: {}, created: unix('2026-10-15') },
    { id: 'cus_g', object: 'customer', email: null, metadata: {}, created: unix('2026-08-01') },
  );
  stripe.data.subscriptions.push(
    subscription('sub_a', 'cus_a', { start_date: unix('2026-09-01') }, [{ price: price('price_m20', 2000, 'month') }]),
    subscription('sub_b', 'cus_b', { start_date: unix('2026-11-03') }, [{ price: price('price_y240', 24000, 'year'), quantity: 3 }]),
    subscription(
      'sub_c',
      'cus_c',
      {
        status: 'past_due',
        start_date: unix('2026-10-01'),
        discounts: [coupon('QUARTER', { percent_off: 25, duration: 'forever' }), coupon('HALFONCE', { percent_off: 50, duration: 'once' })],
      },
      [{ price: price('price_m40', 4000, 'month') }],
    ),
    subscription(
      'sub_d',
      'cus_d',
      {
        start_date: unix('2026-06-01'),
        cancel_at_period_end: true,
        discounts: [{ ...coupon('FIVEOFF', { amount_off: 500, currency: 'usd', duration: 'repeating' }), end: unix('2027-01-01') }],
      },
      [{ price: price('price_m30', 3000, 'month'), current_period_end: unix('2026-11-12') }],
    ),
    subscription('sub_e', 'cus_e', { status: 'trialing', start_date: unix('2026-11-06'), trial_end: unix('2026-11-20') }, [
      { price: price('price_m10', 1000, 'month') },
    ]),
    subscription('sub_f', 'cus_f', { currency: 'eur', start_date: unix('2026-10-15') }, [
      { price: price('price_eur15', 1500, 'month'), quantity: 2 },
      { price: price('price_metered', 5, 'month', 'metered') },
    ]),
    subscription('sub_g', 'cus_g', { start_date: unix('2026-08-01') }, [{ price: price('price_w7', 700, 'week') }]),
  );
}

/** What changed at the processor between T1 and T2, with the events that say so. */
function changeFixture(stripe: FakeStripeReads): void {
  const find = (id: string) => stripe.data.subscriptions.find((s) => s.id === id) as ReturnType<typeof subscription>;
  find('sub_a').items.data[0].price = price('price_m50', 5000, 'month');
  find('sub_b').items.data[0].quantity = 2;
  Object.assign(find('sub_d'), { status: 'canceled', ended_at: unix('2026-11-12') });
  stripe.data.customers.push({ id: 'cus_h', object: 'customer', email: null, metadata: {}, created: unix('2026-11-14') });
  stripe.data.subscriptions.push(
    subscription('sub_h', 'cus_h', { start_date: unix('2026-11-14') }, [{ price: price('price_m12', 1200, 'month') }]),
  );
  const event = (id: string, type: string, object: string, created: string) => ({
    id,
    object: 'event',
    type,
    created: unix(created),
    data: { object: { id: object } },
  });
  stripe.data.events.push(
    event('evt_5', 'customer.subscription.created', 'sub_h', '2026-11-14T10:00:00Z'),
    event('evt_4', 'customer.created', 'cus_h', '2026-11-14T09:59:00Z'),
    event('evt_3', 'customer.subscription.deleted', 'sub_d', '2026-11-12T00:00:00Z'),
    event('evt_2', 'customer.subscription.updated', 'sub_b', '2026-11-11T00:00:00Z'),
    event('evt_1', 'customer.subscription.updated', 'sub_a', '2026-11-10T12:00:00Z'),
    // Before the backfill began: not read again.
    event('evt_0', 'customer.subscription.updated', 'sub_g', '2026-11-01T00:00:00Z'),
  );
}

describe('Revenue sync and figures', () => {
  let stripe: FakeStripeReads;
  let t: TestApp;
  let project: SeededProject;

  beforeAll(async () => {
    stripe = await FakeStripeReads.start();
    t = await TestApp.start({ env: { STRIPE_API_URL: stripe.url } });
    project = await t.seedProject({ plan: 'indie' });
    t.clock.freeze(T1);
    stripe.addKey(KEY);
    seedFixture(stripe);
    // People the product knows: a by user id, b by an email identify linked, and one who never paid.
    for (const [userId, email] of [
      ['u_a', 'a@example.com'],
      ['u_b', 'b@example.com'],
      ['u_x', 'x@example.com'],
    ]) {
      await t.api.as(project.secretKey).post('/v1/analytics/identify').send({ user_id: userId, email }).expect(200);
    }
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
  });
  afterEach(() => expect(stripe.writes).toEqual([]));

  const get = (path: string) => t.api.as(project.secretKey).get(path);

  it('backfills page by page, waits out a 429, and resumes a run killed mid-way without duplicates', async () => {
    stripe.maxPageSize = 2;
    stripe.rateLimitNext('customers', '30');
    stripe.failAfterPages('subscriptions', 2);
    await t.api.as(project.secretKey).put('/v1/revenue/connection').send({ key: KEY }).expect(200);
    await t.drainJobs();
    // The 429 put the run to sleep for Retry-After (30 s) without using an attempt.
    expect(stripe.reads('customers')).toHaveLength(2); // the key check, then the 429
    expect((await get('/v1/revenue/connection').expect(200)).body.data.sync).toMatchObject({ state: 'queued', kind: 'backfill' });

    t.clock.advance(30_000);
    await t.drainJobs();
    const failed = (await get('/v1/revenue/connection').expect(200)).body.data.sync;
    expect(failed).toMatchObject({ state: 'retrying', progress: { customers: 7, subscriptions: 4, invoices: 0 } });
    expect(failed.last_error).toContain('Something went wrong');

    t.clock.advance(60_000);
    await t.drainJobs();
    const done = (await get('/v1/revenue/connection').expect(200)).body.data.sync;
    expect(done).toMatchObject({ state: 'synced', kind: 'backfill', last_error: null, progress: { customers: 7, subscriptions: 7 } });
    // Customers were not listed again; subscriptions resumed after the last stored page.
    expect(stripe.reads('customers')).toHaveLength(2 + 4);
    const listed = stripe
      .reads('subscriptions')
      .slice(1)
      .map((read) => read.query.starting_after ?? null);
    expect(listed).toEqual([null, 'sub_b', 'sub_d', 'sub_d', 'sub_f']);
    expect(await t.db.manager.count(RevenueCustomerEntity, { where: { projectId: project.project.id } })).toBe(7);
    expect(await t.db.manager.count(RevenueSubscriptionEntity, { where: { projectId: project.project.id } })).toBe(7);
  });

  it('answers the hand-computed MRR after the backfill', async () => {
    const res = await get('/v1/revenue').expect(200);
    expect(res.body.meta.method).toContain('yearly ÷ 12');
    const usd = res.body.data.currencies.find((c: { currency: string }) => c.currency === 'usd');
    expect(usd).toMatchObject({ mrr: 16533, arr: 198396, paying_customers: 5, active_subscriptions: 5 });
    expect(usd.movements).toEqual({ new: 6000, expansion: 0, contraction: 0, churned: 0, reactivated: 0, net: 6000 });
  });

  it('applies the events list on POST /v1/revenue/sync and answers the month’s movements', async () => {
    t.clock.freeze(T2);
    changeFixture(stripe);
    const started = await t.api.as(project.secretKey).post('/v1/revenue/sync').expect(202);
    expect(started.body.data).toEqual({ project_id: project.project.id, status: 'queued', kind: 'incremental' });
    await t.drainJobs();
    const events = stripe.reads('events').at(-1);
    expect(events?.query['created[gte]']).toBe(String(unix('2026-11-10T00:00:00Z') - 300));

    const res = await get('/v1/revenue').expect(200);
    expect(res.body.data.month).toBe('2026-11');
    expect(res.body.data.currencies).toEqual([
      {
        currency: 'eur',
        mrr: 3000,
        arr: 36000,
        paying_customers: 1,
        active_subscriptions: 1,
        movements: { new: 0, expansion: 0, contraction: 0, churned: 0, reactivated: 0, net: 0 },
      },
      {
        currency: 'usd',
        mrr: 16233,
        arr: 194796,
        paying_customers: 5,
        active_subscriptions: 5,
        movements: { new: 7200, expansion: 3000, contraction: 2000, churned: 2500, reactivated: 0, net: 5700 },
      },
    ]);
  });

  it('answers the history month by month', async () => {
    const res = await get('/v1/revenue/history?months=2').expect(200);
    const [october, november] = res.body.data.months;
    expect(october.month).toBe('2026-10');
    expect(october.currencies).toEqual([
      expect.objectContaining({ currency: 'eur', mrr: 3000, movements: expect.objectContaining({ new: 3000 }) }),
      expect.objectContaining({
        currency: 'usd',
        mrr: 10533,
        paying_customers: 4,
        movements: expect.objectContaining({ new: 3000, net: 3000 }),
      }),
    ]);
    expect(november.currencies[1]).toMatchObject({ currency: 'usd', mrr: 16233 });
    const bad = await get('/v1/revenue/history?months=0').expect(400);
    expect(bad.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'months' });
  });

  it('marks matched contacts paying, and shows the lines behind one person’s MRR', async () => {
    const paying = await get('/v1/contacts?paying=true').expect(200);
    const ids = paying.body.data.map((contact: { user_id: string }) => contact.user_id).sort();
    expect(ids).toEqual(['u_a', 'u_b']);
    // A notification group picks the same people through the contacts filter.
    const group = await t.api
      .as(project.secretKey)
      .post('/v1/notifications')
      .send({ title: 'Thanks for paying', body: 'Your plan now includes exports.', contacts: { paying: true } })
      .expect(201);
    expect(group.body.meta.audience).toEqual({ asked: 2, reached: 2, unreachable: [] });
    const contactA = paying.body.data.find((contact: { user_id: string }) => contact.user_id === 'u_a').id as string;
    const lines = await get(`/v1/revenue/customers/${contactA}`).expect(200);
    expect(lines.body.data).toMatchObject({
      contact_id: contactA,
      customer_ids: ['cus_a'],
      mrr: [{ currency: 'usd', mrr: 5000 }],
      subscriptions: [
        { subscription_id: 'sub_a', mrr: 5000, excluded_reason: null, items: [{ price_id: 'price_m50', monthly_amount: 5000 }] },
      ],
    });
    const missing = await get('/v1/revenue/customers/ct_01JD3Z4Q9X8V7T6S5R4Q3P2N1M').expect(404);
    expect(missing.body.error.code).toBe('CONTACT_NOT_FOUND');
  });

  it('runs a sync from the CLI (revenue:sync --project): a full reconcile once the last full pass is a day old', async () => {
    let stdout = '';
    const before = stripe.reads('subscriptions').length;
    const argv = ['revenue:sync', '--project', project.project.slug, '--json'];
    const code = await runCommand(t.app, argv, { stdout: (text) => (stdout += text), stderr: () => undefined });
    expect(code).toBe(0);
    // The backfill finished on Nov 10, five days ago: the queued run is the nightly reconcile, a full pass.
    expect(JSON.parse(stdout)).toEqual({ project_id: project.project.id, status: 'synced', kind: 'reconcile' });
    expect(stripe.reads('subscriptions').length).toBeGreaterThan(before);
    // Nothing new at the processor: the figures stay as they were.
    expect((await get('/v1/revenue').expect(200)).body.data.currencies[1]).toMatchObject({ currency: 'usd', mrr: 16233 });
  });

  it("answers PROCESSOR_NOT_CONNECTED for another project's figures", async () => {
    const other = await t.seedProject({ plan: 'indie' });
    const res = await t.api.as(other.secretKey).get('/v1/revenue').expect(409);
    expect(res.body.error.code).toBe('PROCESSOR_NOT_CONNECTED');
  });

  it("erasing a contact forgets them on the processor's customers, and the figures keep the amounts", async () => {
    const paying = await get('/v1/contacts?paying=true').expect(200);
    const contactB = paying.body.data.find((contact: { user_id: string }) => contact.user_id === 'u_b').id as string;
    const res = await t.api.as(project.secretKey).delete(`/v1/contacts/${contactB}`).expect(200);
    expect(res.body.data.removed.revenue_customers).toBe(1);
    const customer = await t.db.manager.findOneOrFail(RevenueCustomerEntity, {
      where: { projectId: project.project.id, customerId: 'cus_b' },
    });
    expect(customer).toMatchObject({ email: null, userId: null, contactId: null });
    expect((await get('/v1/revenue').expect(200)).body.data.currencies[1]).toMatchObject({ currency: 'usd', mrr: 16233 });
  });

  it('reads nothing from the processor while the plan lacks revenue figures, and reads again after an upgrade', async () => {
    const allReads = () =>
      (['customers', 'subscriptions', 'invoices', 'prices', 'events'] as const).map((kind) => stripe.reads(kind).length);
    const projects = t.get(ProjectsService);
    await projects.setPlan(project.project.id, 'free');
    const before = allReads();
    for (let run = 0; run < 3; run += 1) {
      t.clock.advance(INCREMENTAL_INTERVAL_MS);
      await t.drainJobs();
    }
    expect(allReads()).toEqual(before);
    await projects.setPlan(project.project.id, 'indie');
    t.clock.advance(INCREMENTAL_INTERVAL_MS);
    await t.drainJobs();
    expect(stripe.reads('events').length).toBeGreaterThan(before[4]);
  });
});
