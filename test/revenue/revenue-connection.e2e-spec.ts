import { RevenueConnectionEntity } from '../../src/revenue/entities/revenue-connection.entity';
import { ProjectsService } from '../../src/projects/projects.service';
import { type DashboardOwner, provisionOwner } from '../support/dashboard-owner';
import { FakeStripeReads } from '../support/fake-stripe-reads';
import { TestIdentityProvider } from '../support/identity-provider';
import { type SeededProject, TestApp } from '../support/test-app';

const KEY = 'rk_test_51AbCdEfGhIjKlMnOpQrStUv4f2a';

describe('Revenue connection', () => {
  let idp: TestIdentityProvider;
  let stripe: FakeStripeReads;
  let t: TestApp;

  beforeAll(async () => {
    idp = await TestIdentityProvider.start();
    stripe = await FakeStripeReads.start();
    t = await TestApp.start({ env: idp.env({ STRIPE_API_URL: stripe.url }) });
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
    await idp.close();
  });
  beforeEach(() => stripe.reset());
  // The service only ever reads from the processor.
  afterEach(() => expect(stripe.writes).toEqual([]));

  async function indie(): Promise<SeededProject> {
    return t.seedProject({ plan: 'indie' });
  }

  describe('PUT /v1/revenue/connection', () => {
    it('checks every read the sync needs, seals the key and answers the connection without it', async () => {
      const project = await indie();
      stripe.addKey(KEY);
      const res = await t.api.as(project.secretKey).put('/v1/revenue/connection').send({ key: KEY }).expect(200);
      expect(res.body.data).toMatchObject({
        provider: 'stripe',
        key_last_four: '4f2a',
        mode: 'test',
        permissions: ['customers', 'subscriptions', 'invoices', 'prices', 'events'],
        connected_at: expect.any(String),
        sync: { kind: 'backfill', last_error: null },
      });
      expect(JSON.stringify(res.body)).not.toContain(KEY);
      const probes = stripe.requests.slice(0, 5).map((request) => [request.path, request.key]);
      expect(probes).toEqual(['customers', 'subscriptions', 'invoices', 'prices', 'events'].map((list) => [`/v1/${list}`, KEY]));
      const row = await t.db.manager.findOneOrFail(RevenueConnectionEntity, { where: { projectId: project.project.id } });
      expect(row.keyCiphertext).not.toContain(KEY);
      expect(row.keyCiphertext.startsWith('v1.')).toBe(true);
      const again = await t.api.as(project.secretKey).get('/v1/revenue/connection').expect(200);
      expect(JSON.stringify(again.body)).not.toContain(KEY);
    });

    it('refuses a key that is not restricted with PROCESSOR_KEY_NOT_RESTRICTED', async () => {
      const project = await indie();
      for (const key of ['sk_live_51AbCdEfGhIjKlMnOp', 'pk_test_51AbCdEfGhIjKlMnOp', 'rk_prod_51AbCdEf']) {
        const res = await t.api.as(project.secretKey).put('/v1/revenue/connection').send({ key }).expect(422);
        expect(res.body).toMatchObject({ data: null, error: { code: 'PROCESSOR_KEY_NOT_RESTRICTED', param: 'key' } });
      }
      // (Syncs of earlier tests' connections may still be reading with their own keys.)
      expect(stripe.requests.filter((request) => !request.key?.startsWith('rk_test_51AbCd'))).toEqual([]);
    });

    it('answers PROCESSOR_KEY_INVALID when the processor does not know the key, and stores nothing', async () => {
      const project = await indie();
      const res = await t.api.as(project.secretKey).put('/v1/revenue/connection').send({ key: 'rk_live_unknownkey0000' }).expect(422);
      expect(res.body).toMatchObject({ data: null, error: { code: 'PROCESSOR_KEY_INVALID', param: 'key' } });
      expect(await t.db.manager.count(RevenueConnectionEntity, { where: { projectId: project.project.id } })).toBe(0);
    });

    it('names the missing read permission in remediation', async () => {
      const project = await indie();
      stripe.addKey('rk_live_noinvoices0001', ['customers', 'subscriptions', 'prices', 'events']);
      const res = await t.api.as(project.secretKey).put('/v1/revenue/connection').send({ key: 'rk_live_noinvoices0001' }).expect(422);
      expect(res.body.error).toMatchObject({
        code: 'PROCESSOR_KEY_MISSING_PERMISSION',
        param: 'key',
        message: 'The key may not read invoices.',
      });
      expect(res.body.error.remediation).toContain('Billing → Invoices: Read');
      stripe.addKey('rk_live_noevents000001', ['customers', 'subscriptions', 'invoices', 'prices']);
      const events = await t.api.as(project.secretKey).put('/v1/revenue/connection').send({ key: 'rk_live_noevents000001' }).expect(422);
      expect(events.body.error.remediation).toContain('Events: Read');
    });

    it('answers PROCESSOR_ALREADY_CONNECTED for a second key, without asking the processor', async () => {
      const project = await indie();
      stripe.addKey(KEY);
      await t.api.as(project.secretKey).put('/v1/revenue/connection').send({ key: KEY }).expect(200);
      const before = stripe.requests.filter((request) => request.key === 'rk_test_second000000').length;
      stripe.addKey('rk_test_second000000');
      const res = await t.api.as(project.secretKey).put('/v1/revenue/connection').send({ key: 'rk_test_second000000' }).expect(409);
      expect(res.body.error.code).toBe('PROCESSOR_ALREADY_CONNECTED');
      expect(stripe.requests.filter((request) => request.key === 'rk_test_second000000').length).toBe(before);
    });

    it('answers PLAN_UPGRADE_REQUIRED on Free', async () => {
      const project = await t.seedProject({ plan: 'free' });
      const res = await t.api.as(project.secretKey).put('/v1/revenue/connection').send({ key: KEY }).expect(403);
      expect(res.body.error.code).toBe('PLAN_UPGRADE_REQUIRED');
    });

    it('refuses a body without a key with VALIDATION_ERROR, and a publishable key', async () => {
      const project = await indie();
      const res = await t.api.as(project.secretKey).put('/v1/revenue/connection').send({}).expect(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'key' });
      const pub = await t.api.as(project.publishableKey).put('/v1/revenue/connection').send({ key: KEY }).expect(403);
      expect(pub.body.error.code).toBe('KEY_INSUFFICIENT_PERMISSIONS');
    });
  });

  describe('PUT /v1/dashboard/revenue/connection', () => {
    const as = (owner: DashboardOwner, projectId: string) => ({
      put: (path: string) => t.api.as(owner.token).put(path).set('X-Service-Project', projectId),
    });

    it('allows one connection per account on Indie and one per project on Builder', async () => {
      const owner = await provisionOwner(t.api, idp, 'revenue_owner');
      const second = (await t.api.as(owner.token).post('/v1/dashboard/projects').send({ name: 'Second' }).expect(201)).body.data.project
        .id as string;
      await t.get(ProjectsService).setPlan(owner.projectId, 'indie');
      await t.get(ProjectsService).setPlan(second, 'indie');
      stripe.addKey('rk_live_first0000001');
      stripe.addKey('rk_live_second000002');
      await as(owner, owner.projectId).put('/v1/dashboard/revenue/connection').send({ key: 'rk_live_first0000001' }).expect(200);
      const refused = await as(owner, second).put('/v1/dashboard/revenue/connection').send({ key: 'rk_live_second000002' }).expect(403);
      expect(refused.body.error.code).toBe('PROCESSOR_CONNECTION_LIMIT_REACHED');

      await t.get(ProjectsService).setPlan(owner.projectId, 'builder');
      await t.get(ProjectsService).setPlan(second, 'builder');
      const res = await as(owner, second).put('/v1/dashboard/revenue/connection').send({ key: 'rk_live_second000002' }).expect(200);
      expect(res.body.data).toMatchObject({ key_last_four: '0002', mode: 'live' });
    });
  });

  describe('GET and DELETE /v1/revenue/connection', () => {
    it('answers PROCESSOR_NOT_CONNECTED before a connection and after disconnecting', async () => {
      const project = await indie();
      const none = await t.api.as(project.secretKey).get('/v1/revenue/connection').expect(409);
      expect(none.body.error.code).toBe('PROCESSOR_NOT_CONNECTED');
      stripe.addKey(KEY);
      await t.api.as(project.secretKey).put('/v1/revenue/connection').send({ key: KEY }).expect(200);
      const res = await t.api.as(project.secretKey).delete('/v1/revenue/connection').expect(200);
      expect(res.body.data).toEqual({ disconnected: true });
      expect((await t.api.as(project.secretKey).get('/v1/revenue/connection').expect(409)).body.error.code).toBe('PROCESSOR_NOT_CONNECTED');
      expect((await t.api.as(project.secretKey).delete('/v1/revenue/connection').expect(409)).body.error.code).toBe(
        'PROCESSOR_NOT_CONNECTED',
      );
    });

    it("does not show another project's connection", async () => {
      const mine = await indie();
      const other = await indie();
      stripe.addKey(KEY);
      await t.api.as(mine.secretKey).put('/v1/revenue/connection').send({ key: KEY }).expect(200);
      expect((await t.api.as(other.secretKey).get('/v1/revenue/connection').expect(409)).body.error.code).toBe('PROCESSOR_NOT_CONNECTED');
    });
  });
});

describe('Revenue connection without ENCRYPTION_KEY', () => {
  it('answers PROCESSOR_CONNECT_NOT_CONFIGURED before looking at the key', async () => {
    const stripe = await FakeStripeReads.start();
    // No key at all: only an app started without the start-up key check (as the CLI starts) can be in this state.
    const t = await TestApp.start({
      env: { STRIPE_API_URL: stripe.url, ENCRYPTION_KEY: undefined as unknown as string },
      checkEncryptionKey: false,
    });
    try {
      const project = await t.seedProject({ plan: 'indie' });
      const res = await t.api.as(project.secretKey).put('/v1/revenue/connection').send({ key: KEY }).expect(503);
      expect(res.body).toMatchObject({ data: null, error: { code: 'PROCESSOR_CONNECT_NOT_CONFIGURED' } });
      expect(stripe.requests).toEqual([]);
    } finally {
      await t.close();
      await stripe.close();
    }
  });
});
