import { Writable } from 'node:stream';
import { ProbeModule } from '../support/probe.module';
import { TestApp } from '../support/test-app';

/** Collects the JSON log lines the application writes. */
class LogLines extends Writable {
  readonly lines: Record<string, unknown>[] = [];
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) this.lines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  }
  requests(): Record<string, unknown>[] {
    return this.lines.filter((line) => 'request_id' in line && 'route' in line);
  }
}

describe('Request log', () => {
  let t: TestApp;
  const log = new LogLines();

  beforeAll(async () => {
    t = await TestApp.start({ env: { LOG_LEVEL: 'info' }, logDestination: log });
  });
  afterAll(() => t.close());

  it('writes one line per request with its id, route pattern, status, duration and project, and nothing secret', async () => {
    const { project, secretKey } = await t.seedProject();
    const before = log.requests().length;
    const ok = await t.api.as(secretKey).get('/v1/feedback?limit=5').expect(200);
    const missing = await t.api.as(secretKey).get('/v1/feedback/fb_01JD3Z4Q9X8V7T6S5R4Q3P2N1M').expect(404);
    const lines = log.requests().slice(before);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      request_id: ok.headers['x-request-id'],
      method: 'GET',
      route: '/v1/feedback',
      status: 200,
      project_id: project.id,
      level: 30,
    });
    expect(typeof lines[0].duration_ms).toBe('number');
    // The route pattern, not the id in the path; never the query string or the key.
    expect(lines[1]).toMatchObject({ request_id: missing.headers['x-request-id'], route: '/v1/feedback/:feedback_id', status: 404 });
    const text = JSON.stringify(lines);
    expect(text).not.toContain(secretKey);
    expect(text).not.toContain('limit=5');
    expect(text).not.toContain('fb_01JD3Z4Q9X8V7T6S5R4Q3P2N1M');
  });

  it('names unknown routes by path and leaves health checks out', async () => {
    const before = log.requests().length;
    await t.api.get('/v1/_health').expect(200);
    await t.api.get('/v1/nowhere').expect(404);
    const lines = log.requests().slice(before);
    expect(lines.map((line) => [line.route, line.status, line.project_id])).toEqual([['/v1/nowhere', 404, null]]);
  });
});

describe('Security headers', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.close());

  it('gives JSON answers the short API set', async () => {
    const res = await t.api.get('/v1/_health').expect(200);
    expect(res.headers).toMatchObject({
      'content-security-policy': "default-src 'none';frame-ancestors 'none'",
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'strict-transport-security': expect.stringContaining('max-age='),
    });
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers['origin-agent-cluster']).toBeUndefined();
  });

  it('gives documents (the API reference, the pages behind email links) the document set', async () => {
    const docs = await t.api.get('/docs/').expect(200);
    expect(docs.headers['content-security-policy']).toContain("script-src 'self'");
    const page = await t.api.get('/v1/waitlist/confirm?token=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    expect(page.headers['content-type']).toContain('text/html');
    // The document set, with the pages' own stricter policy in place of helmet's default one.
    expect(page.headers['content-security-policy']).toMatch(/^default-src 'none'; style-src 'sha256-[^']+'; /);
    expect(page.headers['content-security-policy']).not.toContain('unsafe-inline');
    expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(page.headers['cross-origin-opener-policy']).toBe('same-origin');
  });
});

describe('BROWSER_RATE_LIMIT', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start({ imports: [ProbeModule], env: { BROWSER_RATE_LIMIT: '3' } });
  });
  afterAll(() => t.close());

  it('sets the per-IP browser limit', async () => {
    const { publishableKey } = await t.seedProject();
    for (let i = 0; i < 3; i += 1) await t.api.as(publishableKey).post('/v1/_probe/browser').expect(200);
    const limited = await t.api.as(publishableKey).post('/v1/_probe/browser').expect(429);
    expect(limited.headers['x-ratelimit-limit']).toBe('3');
    expect(limited.body.error.message).toContain('3 per minute');
  });
});
