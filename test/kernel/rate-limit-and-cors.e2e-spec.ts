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

  it('is closed for secret-key endpoints', async () => {
    const preflight = await t.api
      .options('/v1/setup-check')
      .set('Origin', 'https://evil.example')
      .set('Access-Control-Request-Method', 'GET');
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    const res = await t.api.as(project.secretKey).get('/v1/setup-check').set('Origin', 'https://evil.example').expect(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});
