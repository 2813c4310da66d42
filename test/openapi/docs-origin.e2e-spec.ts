import { TestApp } from '../support/test-app';

/** The CSP's connect-src sources of a /docs answer. */
function connectSources(res: { headers: Record<string, string | string[] | undefined> }): string[] {
  const policy = String(res.headers['content-security-policy'] ?? '');
  const directive = policy.split(';').find((part) => part.trim().startsWith('connect-src'));
  return directive ? directive.trim().split(/\s+/).slice(1) : [];
}

describe('API reference at /docs, opened from any host name', () => {
  let t: TestApp;
  let proxied: TestApp;

  beforeAll(async () => {
    t = await TestApp.start();
    proxied = await TestApp.start({ env: { TRUST_PROXY: '1' } });
  });
  afterAll(async () => {
    await t?.close();
    await proxied?.close();
  });

  describe('GET /docs', () => {
    it('names the service in the page title', async () => {
      const res = await t.api.get('/docs').redirects(1).expect(200);
      expect(res.text).toContain('<title>Launch Service API</title>');
    });

    it('lets "Try it out" call the host the page was opened on, and PUBLIC_BASE_URL', async () => {
      const res = await t.api.get('/docs/').set('Host', 'api.other-name.test:8080').expect(200);
      expect(connectSources(res)).toEqual(["'self'", 'https://launch.test', 'http://api.other-name.test:8080']);
    });

    it('names that host first in the document Swagger UI loads', async () => {
      const res = await t.api.get('/docs/swagger-ui-init.js').set('Host', 'api.other-name.test:8080').expect(200);
      expect(res.text).toContain('"servers": [\n      {\n        "url": "http://api.other-name.test:8080"');
    });

    it('ignores X-Forwarded-Host and X-Forwarded-Proto unless TRUST_PROXY trusts the peer', async () => {
      const res = await t.api
        .get('/openapi.json')
        .set('Host', 'internal:3000')
        .set('X-Forwarded-Host', 'api.example.org')
        .set('X-Forwarded-Proto', 'https')
        .expect(200);
      expect(res.body.servers).toEqual([{ url: 'http://internal:3000' }, { url: 'https://launch.test' }]);
    });

    it('follows X-Forwarded-Host and X-Forwarded-Proto under TRUST_PROXY', async () => {
      const forwarded = { Host: 'internal:3000', 'X-Forwarded-Host': 'api.example.org', 'X-Forwarded-Proto': 'https' };
      const page = await proxied.api.get('/docs/').set(forwarded).expect(200);
      expect(connectSources(page)).toContain('https://api.example.org');
      const document = await proxied.api.get('/openapi.json').set(forwarded).expect(200);
      expect(document.body.servers).toEqual([{ url: 'https://api.example.org' }, { url: 'https://launch.test' }]);
      expect(document.headers.vary).toContain('X-Forwarded-Host');
    });

    it('names PUBLIC_BASE_URL once when the page is opened there, and only it for a host that is no plain name', async () => {
      const there = await t.api.get('/openapi.json').set('Host', 'launch.test').set('X-Forwarded-Proto', 'https').expect(200);
      expect(there.body.servers).toEqual([{ url: 'http://launch.test' }, { url: 'https://launch.test' }]);
      const proxiedThere = await proxied.api
        .get('/openapi.json')
        .set({ 'X-Forwarded-Host': 'launch.test', 'X-Forwarded-Proto': 'https' })
        .expect(200);
      expect(proxiedThere.body.servers).toEqual([{ url: 'https://launch.test' }]);
      const odd = await proxied.api.get('/openapi.json').set('X-Forwarded-Host', 'x"y').expect(200);
      expect(odd.body.servers).toEqual([{ url: 'https://launch.test' }]);
    });
  });
});
