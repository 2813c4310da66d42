import { BillingAccountEntity } from '../../src/billing/entities/billing-account.entity';
import { ProjectEntity } from '../../src/projects/entities/project.entity';
import { type DashboardOwner, provisionOwner } from '../support/dashboard-owner';
import { FakeStripe } from '../support/fake-stripe';
import { TestIdentityProvider } from '../support/identity-provider';
import { TestApp } from '../support/test-app';

describe('Billing (dashboard)', () => {
  let idp: TestIdentityProvider;
  let stripe: FakeStripe;
  let t: TestApp;
  let owner: DashboardOwner;
  let stranger: DashboardOwner;

  beforeAll(async () => {
    idp = await TestIdentityProvider.start();
    stripe = await FakeStripe.start();
    t = await TestApp.start({ env: idp.env(stripe.env({ DASHBOARD_ORIGINS: 'https://app.launch.test' })) });
    owner = await provisionOwner(t.api, idp, 'billing_owner', 'owner@example.com');
    stranger = await provisionOwner(t.api, idp, 'billing_stranger');
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
    await idp.close();
  });
  beforeEach(() => {
    stripe.mode = 'ok';
    stripe.requests.length = 0;
  });

  const as = (who: DashboardOwner, projectId = who.projectId) => ({
    get: (path: string) => t.api.as(who.token).get(path).set('X-Service-Project', projectId),
    post: (path: string) => t.api.as(who.token).post(path).set('X-Service-Project', projectId),
  });

  async function giveCustomer(projectId: string, status: string | null = null): Promise<void> {
    const now = new Date();
    await t.db.manager.insert(BillingAccountEntity, {
      projectId,
      customerId: `cus_${projectId.slice(-8)}`,
      subscriptionId: status ? `sub_${projectId.slice(-8)}` : null,
      subscriptionStatus: status,
      lastEventAt: now,
      createdAt: now,
      updatedAt: now,
    });
  }

  describe('GET /v1/dashboard/billing', () => {
    it('answers the plan, no billing account and the plans on sale', async () => {
      const res = await as(owner).get('/v1/dashboard/billing').expect(200);
      expect(res.body.data).toEqual({
        plan: 'free',
        billing_configured: true,
        has_billing_account: false,
        subscription_status: null,
        purchasable_plans: ['indie', 'builder'],
      });
    });

    it("answers PROJECT_NOT_FOUND for another account's project", async () => {
      const res = await as(owner, stranger.projectId).get('/v1/dashboard/billing').expect(404);
      expect(res.body).toMatchObject({ data: null, error: { code: 'PROJECT_NOT_FOUND', param: 'X-Service-Project' } });
    });

    it('refuses API keys with WRONG_AUTH_TYPE', async () => {
      const keyed = await t.seedProject();
      const res = await t.api.as(keyed.secretKey).get('/v1/dashboard/billing').expect(401);
      expect(res.body.error.code).toBe('WRONG_AUTH_TYPE');
    });
  });

  describe('POST /v1/dashboard/billing/checkout', () => {
    it('opens a subscription checkout for the plan with the project attached, and answers its url', async () => {
      const res = await as(owner).post('/v1/dashboard/billing/checkout').send({ plan: 'indie' }).expect(200);
      expect(res.body.data).toEqual({ url: 'https://checkout.stripe.test/c/pay/cs_test_1' });
      expect(stripe.requests).toHaveLength(1);
      const [call] = stripe.requests;
      expect(call).toMatchObject({ method: 'POST', path: '/v1/checkout/sessions', authorization: 'Bearer sk_test_fake_launch' });
      expect(call.params).toMatchObject({
        mode: 'subscription',
        'line_items[0][price]': 'price_indie_monthly',
        'line_items[0][quantity]': '1',
        client_reference_id: owner.projectId,
        'metadata[project_id]': owner.projectId,
        'metadata[plan]': 'indie',
        'subscription_data[metadata][project_id]': owner.projectId,
        customer_email: 'owner@example.com',
        success_url: 'https://app.launch.test/billing?checkout=success',
        cancel_url: 'https://app.launch.test/billing?checkout=cancelled',
      });
      // Nothing changes until the provider's webhook confirms.
      expect((await t.db.manager.findOneByOrFail(ProjectEntity, { id: owner.projectId })).plan).toBe('free');
    });

    it('uses the builder price and given return addresses on the dashboard', async () => {
      await as(owner)
        .post('/v1/dashboard/billing/checkout')
        .send({ plan: 'builder', success_url: 'https://app.launch.test/done', cancel_url: 'https://launch.test/back' })
        .expect(200);
      expect(stripe.requests[0].params).toMatchObject({
        'line_items[0][price]': 'price_builder_monthly',
        success_url: 'https://app.launch.test/done',
        cancel_url: 'https://launch.test/back',
      });
    });

    it('refuses plans that are not on sale with INVALID_PLAN', async () => {
      for (const plan of ['free', 'scale', 'Indie', 'enterprise']) {
        const res = await as(owner).post('/v1/dashboard/billing/checkout').send({ plan }).expect(400);
        expect(res.body).toMatchObject({ data: null, error: { code: 'INVALID_PLAN', param: 'plan' } });
      }
      expect(stripe.requests).toHaveLength(0);
    });

    it('refuses a missing plan and return addresses off the dashboard with VALIDATION_ERROR', async () => {
      const missing = await as(owner).post('/v1/dashboard/billing/checkout').send({}).expect(400);
      expect(missing.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'plan' });
      const elsewhere = await as(owner)
        .post('/v1/dashboard/billing/checkout')
        .send({ plan: 'indie', success_url: 'https://evil.example/phish' })
        .expect(400);
      expect(elsewhere.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'success_url' });
      expect(elsewhere.body.error.remediation).toContain('https://app.launch.test');
      expect(stripe.requests).toHaveLength(0);
    });

    it('answers BILLING_PORTAL_UNAVAILABLE when the provider fails or drops the connection', async () => {
      for (const mode of ['server_error', 'drop'] as const) {
        stripe.mode = mode;
        const res = await as(owner).post('/v1/dashboard/billing/checkout').send({ plan: 'indie' }).expect(502);
        expect(res.body).toMatchObject({ data: null, error: { code: 'BILLING_PORTAL_UNAVAILABLE' } });
        expect(res.body.error.message).not.toMatch(/stripe|went wrong/i);
      }
    });

    it('refuses a second checkout while a subscription is live (BILLING_SUBSCRIPTION_EXISTS)', async () => {
      const other = await provisionOwner(t.api, idp, 'billing_subscribed');
      await giveCustomer(other.projectId, 'active');
      const res = await as(other).post('/v1/dashboard/billing/checkout').send({ plan: 'builder' }).expect(409);
      expect(res.body.error).toMatchObject({ code: 'BILLING_SUBSCRIPTION_EXISTS', param: 'plan' });
      expect(res.body.error.remediation).toContain('/v1/dashboard/billing/portal');
    });

    it('reuses the customer of a project whose subscription ended', async () => {
      const other = await provisionOwner(t.api, idp, 'billing_returning');
      await giveCustomer(other.projectId, 'canceled');
      await as(other).post('/v1/dashboard/billing/checkout').send({ plan: 'indie' }).expect(200);
      expect(stripe.requests[0].params.customer).toBe(`cus_${other.projectId.slice(-8)}`);
      expect(stripe.requests[0].params.customer_email).toBeUndefined();
    });

    it("answers PROJECT_NOT_FOUND for another account's project", async () => {
      const res = await as(owner, stranger.projectId).post('/v1/dashboard/billing/checkout').send({ plan: 'indie' }).expect(404);
      expect(res.body.error.code).toBe('PROJECT_NOT_FOUND');
      expect(stripe.requests).toHaveLength(0);
    });
  });

  describe('POST /v1/dashboard/billing/portal', () => {
    it('answers NO_BILLING_ACCOUNT before any checkout', async () => {
      const res = await as(owner).post('/v1/dashboard/billing/portal').send({}).expect(404);
      expect(res.body).toMatchObject({ data: null, error: { code: 'NO_BILLING_ACCOUNT' } });
      expect(stripe.requests).toHaveLength(0);
    });

    it("opens the customer's portal with the return address", async () => {
      const other = await provisionOwner(t.api, idp, 'billing_portal');
      await giveCustomer(other.projectId, 'active');
      const res = await as(other).post('/v1/dashboard/billing/portal').send({ return_url: 'https://app.launch.test/settings' }).expect(200);
      expect(res.body.data.url).toMatch(/^https:\/\/billing\.stripe\.test\/p\/session\/bps_\d+$/);
      expect(stripe.requests[0]).toMatchObject({
        path: '/v1/billing_portal/sessions',
        params: { customer: `cus_${other.projectId.slice(-8)}`, return_url: 'https://app.launch.test/settings' },
      });
      stripe.mode = 'server_error';
      const failed = await as(other).post('/v1/dashboard/billing/portal').send({}).expect(502);
      expect(failed.body.error.code).toBe('BILLING_PORTAL_UNAVAILABLE');
      stripe.mode = 'drop';
      expect((await as(other).post('/v1/dashboard/billing/portal').send({}).expect(502)).body.error.code).toBe(
        'BILLING_PORTAL_UNAVAILABLE',
      );
    });

    it('refuses a return address off the dashboard', async () => {
      const res = await as(owner).post('/v1/dashboard/billing/portal').send({ return_url: 'javascript:alert(1)' }).expect(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'return_url' });
    });

    it("answers PROJECT_NOT_FOUND for another account's project", async () => {
      const res = await as(owner, stranger.projectId).post('/v1/dashboard/billing/portal').send({}).expect(404);
      expect(res.body.error.code).toBe('PROJECT_NOT_FOUND');
    });
  });

  describe('CORS', () => {
    it('answers the dashboard origin on billing routes, and no other', async () => {
      const preflight = await t.api
        .options('/v1/dashboard/billing/checkout')
        .set('Origin', 'https://app.launch.test')
        .set('Access-Control-Request-Method', 'POST')
        .set('Access-Control-Request-Headers', 'authorization,content-type,x-service-project');
      expect(preflight.status).toBe(204);
      expect(preflight.headers['access-control-allow-origin']).toBe('https://app.launch.test');
      expect(preflight.headers['access-control-allow-headers']).toContain('X-Service-Project');
      const foreign = await t.api
        .options('/v1/dashboard/billing')
        .set('Origin', 'https://evil.example')
        .set('Access-Control-Request-Method', 'GET');
      expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    });
  });
});

describe('Billing without configuration', () => {
  let idp: TestIdentityProvider;
  let t: TestApp;

  beforeAll(async () => {
    idp = await TestIdentityProvider.start();
    t = await TestApp.start({ env: idp.env() });
  });
  afterAll(async () => {
    await t.close();
    await idp.close();
  });

  it('answers BILLING_NOT_CONFIGURED on checkout, portal and the webhook, and says so in GET', async () => {
    const owner = await provisionOwner(t.api, idp, 'billing_unconfigured');
    const call = (path: string) => t.api.as(owner.token).post(path).set('X-Service-Project', owner.projectId);
    for (const [path, body] of [
      ['/v1/dashboard/billing/checkout', { plan: 'indie' }],
      ['/v1/dashboard/billing/portal', {}],
    ] as const) {
      const res = await call(path).send(body).expect(503);
      expect(res.body).toMatchObject({ data: null, error: { code: 'BILLING_NOT_CONFIGURED' } });
      expect(res.body.error.remediation).toContain('STRIPE_SECRET_KEY');
    }
    const hook = await t.api.post('/v1/billing/webhook').set('Stripe-Signature', 't=1,v1=x').send({ id: 'evt_1' }).expect(503);
    expect(hook.body.error.code).toBe('BILLING_NOT_CONFIGURED');
    const status = await t.api.as(owner.token).get('/v1/dashboard/billing').set('X-Service-Project', owner.projectId).expect(200);
    expect(status.body.data).toMatchObject({ plan: 'free', billing_configured: false });
  });
});
