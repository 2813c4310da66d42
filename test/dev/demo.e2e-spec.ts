import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { SigningSecretsService } from '../../src/notifications/identity/signing-secrets.service';
import { userHashOf } from '../support/notification-seed';
import type { SeededProject } from '../support/test-app';
import { TestApp } from '../support/test-app';

const NO_SUCH_ENDPOINT = { data: null, error: { code: 'NOT_FOUND', message: 'No such endpoint.' } };

/** The page's `data-…` value of the script tag of `script` (notifications or changelog). */
function scriptAttribute(html: string, script: string, name: string): string | undefined {
  const tag = new RegExp(`<script src="[^"]*/v1/${script}\\.js"([^>]*)>`).exec(html)?.[1] ?? '';
  return new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1];
}

/** This machine's first address that is not loopback (none on a machine without a network). */
function outsideAddress(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((address) => address && address.family === 'IPv4' && !address.internal)?.address;
}

/** A GET of /demo over a real connection to `address`, with the Host this machine's name. */
function getOver(address: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: address, port, path: '/demo', headers: { host: `localhost:${port}` } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('GET /demo and POST /demo/notifications with DEV_MAIL=on', () => {
  let t: TestApp;
  // Not part of the API, so not in openapi.json: these calls skip the document check.
  const demo = () => t.api.unchecked().get('/demo').set('Accept', 'text/html');

  beforeAll(async () => {
    t = await TestApp.start({ env: { DEV_MAIL: 'on' } });
  });
  afterAll(() => t.close());

  it('explains how to make the demo project while there is none', async () => {
    const res = await demo().expect(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toContain('This server has no project with the slug <code>demo</code>.');
    expect(res.text).toContain('npm run cli -- project:create --name Demo --slug demo --plan builder');
    expect(res.text).not.toContain('<script');
  });

  describe('with the demo project', () => {
    let seeded: SeededProject;

    beforeAll(async () => {
      seeded = await t.seedProject({ plan: 'builder', slug: 'demo', name: 'Demo' });
    });

    it('embeds both scripts with a publishable key and the user hash made here, and no secret', async () => {
      const res = await demo().expect(200);
      const key = scriptAttribute(res.text, 'changelog', 'data-key');
      const hash = scriptAttribute(res.text, 'changelog', 'data-user-hash');
      expect(key).toMatch(/^svc_pub_live_[A-Za-z0-9]{32}$/);
      expect(hash).toMatch(/^[0-9a-f]{64}$/);
      for (const name of ['data-key', 'data-user-id', 'data-user-hash']) {
        expect(scriptAttribute(res.text, 'notifications', name)).toBe(scriptAttribute(res.text, 'changelog', name));
      }
      expect(scriptAttribute(res.text, 'changelog', 'data-user-id')).toBe('demo-user');
      expect(res.text).toContain('<launch-changelog></launch-changelog>');
      // No secret key, no signing secret: the curl example names the secret key only by its prefix.
      expect(res.text).not.toMatch(/svc_live_[A-Za-z0-9]|svc_ntf_|sk_live_/);
      expect(res.text).not.toContain(seeded.secretKey);

      // The key and the hash work, as a browser would use them.
      await t.api.as(key!).get('/v1/notifications/unread/count?user_id=demo-user').set('X-Service-User-Hash', hash!).expect(200);
      // The page made the project's signing secret, so creating one now says it exists.
      await t.api.as(seeded.secretKey).post('/v1/notifications/signing-secret').expect(409);
    });

    it('keeps one demo key across visits (derived, so the same after a restart too)', async () => {
      const keyOfPage = async () => (await demo().expect(200)).text.match(/data-key="([^"]+)"/)?.[1];
      const first = await keyOfPage();
      expect(await keyOfPage()).toBe(first);
      const rows = await t.db.manager.query(
        `SELECT count(*)::int AS count FROM api_keys WHERE project_id = $1 AND type = 'publishable' AND revoked_at IS NULL`,
        [seeded.project.id],
      );
      // The seeded project's own key and the demo's.
      expect(rows).toEqual([{ count: 2 }]);
    });

    it('answers under a policy that lets only the scripts, their API calls and its own form in', async () => {
      const res = await demo().expect(200);
      const { cdnUrl, publicBaseUrl } = t.config;
      const directives = String(res.headers['content-security-policy']).split('; ');
      expect(directives).toEqual([
        "default-src 'none'",
        `script-src ${cdnUrl}`,
        `connect-src ${publicBaseUrl}`,
        `img-src ${publicBaseUrl} https: data:`,
        expect.stringMatching(/^style-src 'sha256-[A-Za-z0-9+/]+=*'$/),
        "form-action 'self'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
      ]);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['referrer-policy']).toBe('same-origin');
      // No inline script and no inline style attribute: the policy would refuse them.
      expect(res.text).not.toMatch(/<script(?![^>]*\bsrc=)|\son\w+=|\sstyle=/);
    });

    it('sends the demo person a notification through the service and comes back to the page', async () => {
      const hash = userHashOf('demo-user', await signingSecretOf(t, seeded.project.id));
      const unread = async () =>
        (
          await t.api
            .as(seeded.publishableKey)
            .get('/v1/notifications/unread/count?user_id=demo-user')
            .set('X-Service-User-Hash', hash)
            .expect(200)
        ).body.data.unread_count;
      const before = await unread();
      const res = await t.api
        .unchecked()
        .post('/demo/notifications')
        .set('Origin', 'http://127.0.0.1:3000')
        .set('Host', '127.0.0.1:3000')
        .set('Sec-Fetch-Site', 'same-origin')
        .expect(303);
      expect(res.headers.location).toBe('/demo?sent=1');
      expect(await unread()).toBe(before + 1);
      expect((await demo().query({ sent: '1' }).expect(200)).text).toContain('<p role="status">Sent: the bell shows it.</p>');
    });

    it('refuses a post that another site made the browser send, as if the route did not exist', async () => {
      for (const [header, value] of [
        ['Origin', 'https://attacker.example'],
        ['Sec-Fetch-Site', 'cross-site'],
      ]) {
        const res = await t.api.unchecked().post('/demo/notifications').set(header, value).expect(404);
        expect(res.body).toMatchObject(NO_SUCH_ENDPOINT);
      }
    });

    it.each([
      ['X-Forwarded-For', '127.0.0.1'],
      ['Forwarded', 'for=127.0.0.1'],
      ['X-Real-IP', '127.0.0.1'],
    ])('is not found when a proxy passed the request on (%s)', async (header, value) => {
      expect((await demo().set(header, value).expect(404)).body).toMatchObject(NO_SUCH_ENDPOINT);
      expect((await t.api.unchecked().post('/demo/notifications').set(header, value).expect(404)).body).toMatchObject(NO_SUCH_ENDPOINT);
    });

    it('is not found under a name that is not ours, nor from a peer that is not this machine', async () => {
      expect((await demo().set('Host', 'rebind.attacker.example:3000').expect(404)).body).toMatchObject(NO_SUCH_ENDPOINT);
      const address = outsideAddress();
      if (!address) return; // a machine without a network interface has no other peer to try
      const server = t.app.getHttpServer();
      await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
      const port = (server.address() as AddressInfo).port;
      expect(await getOver('127.0.0.1', port)).toBe(200);
      expect(await getOver(address, port)).toBe(404);
    });
  });
});

describe('/demo without DEV_MAIL', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.close());

  it('does not exist, even with the demo project', async () => {
    await t.seedProject({ plan: 'builder', slug: 'demo', name: 'Demo' });
    expect((await t.api.get('/demo').set('Accept', 'text/html').expect(404)).body).toMatchObject(NO_SUCH_ENDPOINT);
    expect((await t.api.post('/demo/notifications').expect(404)).body).toMatchObject(NO_SUCH_ENDPOINT);
  });
});

/** The project's current signing secret, as the service opens it. */
async function signingSecretOf(t: TestApp, projectId: string): Promise<string> {
  const { current } = await t.get(SigningSecretsService).readSecrets(projectId);
  if (!current) throw new Error('no signing secret');
  return current;
}
