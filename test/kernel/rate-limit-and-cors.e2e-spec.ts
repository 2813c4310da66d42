import { ProbeModule } from '../support/probe.module';
import { SeededProject, TestApp } from '../support/test-app';

describe('Browser rate limit', () => {
  let t: TestApp;
  let project: SeededProject;

  beforeAll(async () => {
    t = await TestApp.start({ imports: [ProbeModule], env: { TRUST_PROXY: 'true' } });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    project = await t.seedProject();
  });

  const fromIp = (ip: string, key = project.publishableKey) => t.api.as(key).post('/v1/_probe/browser').set('X-Forwarded-For', ip);

  it('allows 120 browser calls per minute per IP, then answers RATE_LIMITED with Retry-After', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 120; i += 1) statuses.push((await fromIp('203.0.113.7')).status);
    expect(statuses.every((status) => status === 200)).toBe(true);
    const limited = await fromIp('203.0.113.7').expect(429);
    expect(limited.body.error).toMatchObject({ code: 'RATE_LIMITED' });
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Another address has its own budget; secret keys are servers and are not limited per IP.
    await fromIp('203.0.113.8').expect(200);
    await fromIp('203.0.113.7', project.secretKey).expect(200);
  });

  it('limits public browser endpoints without a key too', async () => {
    for (let i = 0; i < 120; i += 1) await t.api.post('/v1/_probe/public').set('X-Forwarded-For', '198.51.100.1').expect(200);
    const res = await t.api.post('/v1/_probe/public').set('X-Forwarded-For', '198.51.100.1').expect(429);
    expect(res.headers['retry-after']).toBeDefined();
  });

  it('does not limit secret-key endpoints per IP', async () => {
    for (let i = 0; i < 130; i += 1)
      await t.api.as(project.secretKey).get('/v1/setup-check').set('X-Forwarded-For', '192.0.2.1').expect(200);
  });
});

describe('CORS', () => {
  let t: TestApp;
  let project: SeededProject;

  beforeAll(async () => {
    t = await TestApp.start({ imports: [ProbeModule] });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    project = await t.seedProject();
  });

  it('is open for browser endpoints, including the preflight', async () => {
    const preflight = await t.api
      .options('/v1/_probe/browser')
      .set('Origin', 'https://customer.example')
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'authorization,content-type,idempotency-key');
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(preflight.headers['access-control-allow-headers']).toContain('Idempotency-Key');
    const res = await t.api.as(project.publishableKey).post('/v1/_probe/browser').set('Origin', 'https://customer.example').expect(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-expose-headers']).toContain('X-Request-Id');
  });

  it('lets a browser read the refusals of secret-key endpoints, never their answers', async () => {
    const preflight = await t.api
      .options('/v1/webhooks')
      .set('Origin', 'https://shop.example')
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'authorization,content-type');
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(preflight.headers['access-control-allow-headers']).toContain('Authorization');
    // A publishable key where a secret key is needed: a readable 403, not an opaque CORS failure.
    const refused = await t.api
      .as(project.publishableKey)
      .post('/v1/webhooks')
      .set('Origin', 'https://shop.example')
      .send({ url: 'https://hooks.example.com/launch', events: ['*'] })
      .expect(403);
    expect(refused.body.error).toMatchObject({ code: 'KEY_INSUFFICIENT_PERMISSIONS', param: 'Authorization' });
    expect(refused.headers['access-control-allow-origin']).toBe('*');
    expect(refused.headers['access-control-expose-headers']).toContain('X-Request-Id');
    // What a secret key returns stays unreadable to a page.
    const answered = await t.api.as(project.secretKey).get('/v1/setup-check').set('Origin', 'https://evil.example').expect(200);
    expect(answered.headers['access-control-allow-origin']).toBeUndefined();
    // Without an Origin (a server) nothing changes.
    const server = await t.api.as(project.publishableKey).get('/v1/webhooks').expect(403);
    expect(server.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('Dashboard CORS (DASHBOARD_ORIGINS)', () => {
  const DASHBOARD = 'https://dashboard.example';

  describe('with DASHBOARD_ORIGINS set', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await TestApp.start({ imports: [ProbeModule], env: { DASHBOARD_ORIGINS: `${DASHBOARD}, http://localhost:5173` } });
    });
    afterAll(() => t.close());

    it('answers the preflight and the call for a listed origin, by name and with credentials', async () => {
      const preflight = await t.api
        .options('/v1/dashboard/projects')
        .set('Origin', DASHBOARD)
        .set('Access-Control-Request-Method', 'GET')
        .set('Access-Control-Request-Headers', 'authorization,x-service-project');
      expect(preflight.status).toBe(204);
      expect(preflight.headers).toMatchObject({
        'access-control-allow-origin': DASHBOARD,
        'access-control-allow-credentials': 'true',
        vary: expect.stringContaining('Origin'),
      });
      expect(preflight.headers['access-control-allow-headers']).toContain('X-Service-Project');
      const res = await t.api.get('/v1/dashboard/projects').set('Origin', 'http://localhost:5173').expect(401);
      expect(res.body.error.code).toBe('MISSING_AUTH');
      expect(res.headers['access-control-allow-origin']).toBe('http://localhost:5173');
      expect(res.headers['access-control-expose-headers']).toContain('X-Request-Id');
      const provision = await t.api.options('/v1/auth/provision').set('Origin', DASHBOARD).set('Access-Control-Request-Method', 'POST');
      expect(provision.headers['access-control-allow-origin']).toBe(DASHBOARD);
    });

    it('sends no CORS headers to other origins', async () => {
      const preflight = await t.api
        .options('/v1/dashboard/projects')
        .set('Origin', 'https://evil.example')
        .set('Access-Control-Request-Method', 'GET');
      expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
      expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();
      const res = await t.api.get('/v1/dashboard/projects').set('Origin', 'https://dashboard.example.evil.example').expect(401);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(res.headers.vary).toContain('Origin');
    });

    it('leaves browser endpoints open and secret-key endpoints closed', async () => {
      const project = await t.seedProject();
      const browser = await t.api.as(project.publishableKey).post('/v1/_probe/browser').set('Origin', DASHBOARD).expect(200);
      expect(browser.headers['access-control-allow-origin']).toBe('*');
      const secret = await t.api.as(project.secretKey).get('/v1/setup-check').set('Origin', DASHBOARD).expect(200);
      expect(secret.headers['access-control-allow-origin']).toBeUndefined();
    });
  });

  describe('with DASHBOARD_ORIGINS unset', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await TestApp.start();
    });
    afterAll(() => t.close());

    it('sends no CORS headers on dashboard routes', async () => {
      const preflight = await t.api.options('/v1/dashboard/projects').set('Origin', DASHBOARD).set('Access-Control-Request-Method', 'GET');
      expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
      const res = await t.api.get('/v1/dashboard/projects').set('Origin', DASHBOARD).expect(401);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    });
  });
});
