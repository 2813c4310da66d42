import { createHash } from 'node:crypto';
import type { Response } from 'supertest';
import { TestApp } from '../support/test-app';

const CDN = 'https://cdn.launch.test';
const LATEST = 'public, max-age=300';
const PINNED = 'public, max-age=31536000, immutable';

// supertest asks for gzip unless told otherwise.
const IDENTITY = { 'Accept-Encoding': 'identity' };

/** The body as sent, whatever Content-Type it has (supertest parses only the types it knows). */
const text = (res: Response): string => (typeof res.text === 'string' ? res.text : Buffer.from(res.body as Buffer).toString('utf8'));

/** Headers every answer of a script or map carries: embeddable anywhere, from any origin, cacheable. */
function expectEmbeddable(res: Response, cacheControl: string): void {
  expect(res.headers).toMatchObject({
    'access-control-allow-origin': '*',
    'cross-origin-resource-policy': 'cross-origin',
    'cache-control': cacheControl,
    'x-content-type-options': 'nosniff',
    vary: 'Accept-Encoding',
  });
  expect(res.headers.etag).toMatch(/^"[\w-]{43}"$/);
}

describe('browser scripts', () => {
  let t: TestApp;
  let current: { version: string; notifications: string; changelog: string; integrity: Record<string, string> };
  const hashOf = (name: 'notifications' | 'changelog') => /\.([0-9a-f]{16})\.js$/.exec(current[name])![1];

  beforeAll(async () => {
    t = await TestApp.start({ env: { CDN_URL: CDN } });
    current = (await t.api.get('/v1/browser-scripts.json').expect(200)).body.data;
  });
  afterAll(() => t.close());

  describe.each(['notifications', 'changelog'] as const)('GET /v1/%s.js', (name) => {
    it('is the minified script with PUBLIC_BASE_URL written in, as text/javascript that any site may embed', async () => {
      const res = await t.api.get(`/v1/${name}.js`).set(IDENTITY).set('Origin', 'https://customer.example').buffer(true).expect(200);
      expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(res.headers['content-encoding']).toBeUndefined();
      expectEmbeddable(res, LATEST);
      const body = text(res);
      expect(body.startsWith('"use strict";(()=>{')).toBe(true);
      expect(body).toContain('"https://launch.test"');
      expect(body).not.toContain('__LAUNCH_SERVICE_BASE_URL__');
      expect(body).toContain(`customElements.define`);
      expect(body.endsWith(`\n//# sourceMappingURL=${name}.js.map\n`)).toBe(true);
      expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(body));
    });

    it('answers If-None-Match with its ETag by 304 and no body, and HEAD with the headers only', async () => {
      const first = await t.api.get(`/v1/${name}.js`).set(IDENTITY).expect(200);
      const again = await t.api.get(`/v1/${name}.js`).set(IDENTITY).set('If-None-Match', first.headers.etag).expect(304);
      expect(again.text ?? '').toBe('');
      expect(again.headers.etag).toBe(first.headers.etag);
      const head = await t.api.head(`/v1/${name}.js`).set(IDENTITY).expect(200);
      expect(head.headers).toMatchObject({ etag: first.headers.etag, 'content-length': first.headers['content-length'] });
      expect(head.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(head.text ?? '').toBe('');
    });

    it('is gzip (level 9, its own ETag) for a browser that accepts it', async () => {
      const plain = await t.api.get(`/v1/${name}.js`).set(IDENTITY).buffer(true).expect(200);
      const gzipped = await t.api.get(`/v1/${name}.js`).set('Accept-Encoding', 'gzip, deflate, br').buffer(true).expect(200);
      expect(gzipped.headers['content-encoding']).toBe('gzip');
      expect(Number(gzipped.headers['content-length'])).toBeLessThan(Number(plain.headers['content-length']) / 1.5);
      expect(gzipped.headers.etag).not.toBe(plain.headers.etag);
      expect(text(gzipped)).toBe(text(plain));
      await t.api.get(`/v1/${name}.js`).set('Accept-Encoding', 'gzip').set('If-None-Match', gzipped.headers.etag).expect(304);
      const refused = await t.api.get(`/v1/${name}.js`).set('Accept-Encoding', 'gzip;q=0, identity').expect(200);
      expect(refused.headers['content-encoding']).toBeUndefined();
    });
  });

  describe.each(['notifications', 'changelog'] as const)('GET /v1/%s.{hash}.js', (name) => {
    it('is the same code at its content-hashed address, immutable for a year, naming its own map', async () => {
      const latest = text(await t.api.get(`/v1/${name}.js`).buffer(true).expect(200));
      const hash = hashOf(name);
      const res = await t.api.get(`/v1/${name}.${hash}.js`).buffer(true).expect(200);
      expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expectEmbeddable(res, PINNED);
      const body = text(res);
      expect(body.endsWith(`\n//# sourceMappingURL=${name}.${hash}.js.map\n`)).toBe(true);
      expect(body.replace(/[^\n]*\n$/, '')).toBe(latest.replace(/[^\n]*\n$/, ''));
      expect(current.integrity[name]).toBe(`sha384-${createHash('sha384').update(body).digest('base64')}`);
      await t.api.get(`/v1/${name}.${hash}.js`).set('If-None-Match', res.headers.etag).expect(304);
      await t.api.head(`/v1/${name}.${hash}.js`).expect(200);
    });

    it('is NOT_FOUND at any other hash, naming the current address', async () => {
      const res = await t.api.get(`/v1/${name}.0123456789abcdef.js`).expect(404);
      expect(res.body).toMatchObject({
        data: null,
        error: { code: 'NOT_FOUND', param: 'hash', message: `This server has no ${name}.js with hash 0123456789abcdef.` },
      });
      expect(res.body.error.remediation).toContain(`${name}.${hashOf(name)}.js`);
      await t.api.get(`/v1/${name}.old.js.map`).expect(404);
    });
  });

  describe.each(['notifications', 'changelog'] as const)('GET /v1/%s.js.map', (name) => {
    it('is the source map of the served code, under the plain and the hashed name', async () => {
      const res = await t.api.get(`/v1/${name}.js.map`).expect(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expectEmbeddable(res, LATEST);
      expect(res.body).toMatchObject({ version: 3 });
      expect(res.body.sources).toEqual(expect.arrayContaining([`src/browser/${name}/index.ts`, 'src/browser/shared/api.ts']));
      expect(res.body.sourcesContent).toHaveLength(res.body.sources.length);
      const pinned = await t.api.get(`/v1/${name}.${hashOf(name)}.js.map`).expect(200);
      expectEmbeddable(pinned, PINNED);
      expect(pinned.body).toEqual(res.body);
    });
  });

  describe('GET /v1/browser-scripts.json', () => {
    it('lists the content-hashed addresses on CDN_URL with their integrity, in the envelope', async () => {
      const res = await t.api.get('/v1/browser-scripts.json').set('Origin', 'https://customer.example').expect(200);
      expect(res.body).toEqual({
        data: {
          version: expect.stringMatching(/^[0-9a-f]{16}$/),
          notifications: expect.stringMatching(/^https:\/\/cdn\.launch\.test\/v1\/notifications\.[0-9a-f]{16}\.js$/),
          changelog: expect.stringMatching(/^https:\/\/cdn\.launch\.test\/v1\/changelog\.[0-9a-f]{16}\.js$/),
          integrity: { notifications: expect.stringMatching(/^sha384-/), changelog: expect.stringMatching(/^sha384-/) },
        },
        error: null,
      });
      expect(res.headers).toMatchObject({ 'cache-control': LATEST, 'access-control-allow-origin': '*' });
      await t.api.get('/v1/browser-scripts.json').set('If-None-Match', res.headers.etag).expect(304);
    });
  });
});

describe('browser scripts on another PUBLIC_BASE_URL', () => {
  it('write that address into the script, so the content hash and the version change with it', async () => {
    const a = await TestApp.start({ env: { PUBLIC_BASE_URL: 'https://a.launch.test' } });
    const b = await TestApp.start({ env: { PUBLIC_BASE_URL: 'https://b.launch.test/api' } });
    try {
      const [first, second] = await Promise.all([a, b].map((app) => app.api.get('/v1/browser-scripts.json').expect(200)));
      expect(first.body.data.notifications).toMatch(/^https:\/\/a\.launch\.test\/v1\/notifications\./);
      expect(second.body.data.notifications).toMatch(/^https:\/\/b\.launch\.test\/api\/v1\/notifications\./);
      expect(second.body.data.version).not.toBe(first.body.data.version);
      const script = await b.api.get('/v1/changelog.js').buffer(true).expect(200);
      expect(text(script)).toContain('"https://b.launch.test/api"');
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
