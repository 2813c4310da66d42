import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ContactEntity } from '../../src/contacts/entities/contact.entity';
import { EventEntity } from '../../src/events/entities/event.entity';
import { MailMessageEntity } from '../../src/infra/mail/entities/mail-message.entity';
import { SeededProject, TestApp } from '../support/test-app';
import { BASE_URL, eventsOf, mailsTo, signupByEmail, signupRows } from './waitlist-test-helpers';

const HOSTILE_NAME = `Evil <script>alert('x')</script> & Co`;
const ESCAPED_NAME = 'Evil &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; Co';

let ipCounter = 0;
/** Each test calls from an address of its own, so the per-IP browser limit of one test never reaches another. */
const nextIp = () => `198.51.100.${(ipCounter += 1)}`;

describe('the hosted waitlist page', () => {
  let t: TestApp;
  let seeded: SeededProject;
  let ip: string;

  beforeAll(async () => {
    t = await TestApp.start({ env: { TRUST_PROXY: 'true' } });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    seeded = await t.seedProject({ plan: 'indie', name: HOSTILE_NAME });
    ip = nextIp();
  });

  const open = (path: string) => t.api.get(path).set('X-Forwarded-For', ip);
  const submit = (slug: string, form: string) => t.api.post(`/w/${slug}`).set('X-Forwarded-For', ip).type('form').send(form);

  async function referrer(email = 'ref@x.io'): Promise<{ id: string; code: string }> {
    const res = await t.api.as(seeded.secretKey).post('/v1/waitlist/signups').send({ email }).expect(201);
    return { id: res.body.data.signup_id, code: res.body.data.referral_code };
  }

  describe('GET /w/{slug}', () => {
    it('serves an escaped signup form carrying the referral code, with a strict policy and no script', async () => {
      const { code } = await referrer();
      const page = await open(`/w/${seeded.project.slug}?ref=${code}`).expect(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['cache-control']).toBe('no-store');
      const csp = page.headers['content-security-policy'];
      expect(csp).toMatch(
        /^default-src 'none'; style-src 'sha256-[^']+'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'/,
      );
      expect(csp).not.toMatch(/script-src|unsafe-inline/);
      expect(page.text).toContain(ESCAPED_NAME);
      expect(page.text).not.toContain('<script');
      expect(page.text).toContain(`<form method="post" action="${seeded.project.slug}">`);
      expect(page.text).toContain(`<input type="hidden" name="ref" value="${code}">`);
      expect(page.text).toContain('name="email" type="email" required');
      expect(page.text).not.toContain('cf-turnstile');
    });

    it('drops a malformed referral code instead of failing', async () => {
      const page = await open(`/w/${seeded.project.slug}?ref=%22%3E%3Cscript%3E`).expect(200);
      expect(page.text).not.toContain('name="ref"');
      expect(page.text).not.toContain('<script');
    });

    it('answers an HTML 404 for an unknown or impossible slug', async () => {
      for (const slug of ['no-such-waitlist', 'UPPER', 'x'.repeat(41), '%3Cscript%3E']) {
        const page = await open(`/w/${slug}`).expect(404);
        expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(page.text).toContain('Waitlist not found');
        expect(page.text).not.toContain('<script');
      }
    });

    it('applies the per-IP browser limit', async () => {
      for (let call = 0; call < 120; call += 1) await open(`/w/${seeded.project.slug}`).expect(200);
      const limited = await open(`/w/${seeded.project.slug}`).expect(429);
      expect(limited.body.error.code).toBe('RATE_LIMITED');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect((await submit(seeded.project.slug, 'email=late@x.io').expect(429)).body.error.code).toBe('RATE_LIMITED');
      expect(await signupRows(t, seeded.project.id)).toEqual([]);
    });
  });

  describe('POST /w/{slug}', () => {
    it('signs the person up through the waitlist, credits the referrer and shows the position and referral link', async () => {
      const ref = await referrer();
      const page = await submit(seeded.project.slug, `email=${encodeURIComponent(' New.Person@X.io ')}&ref=${ref.code}`).expect(201);
      const row = await signupByEmail(t, seeded.project.id, 'new.person@x.io');
      expect(row).toMatchObject({ position: 2, channel: 'widget', referredBySignupId: ref.id, status: 'waiting' });
      const referralLink = `${BASE_URL}/w/${seeded.project.slug}?ref=${row.referralCode}`;
      expect(page.text).toContain('<strong id="position">2</strong>');
      expect(page.text).toContain(`<a id="referral-link" href="${referralLink}">${referralLink}</a>`);
      expect(page.text).toContain(ESCAPED_NAME);
      expect(page.headers['cache-control']).toBe('no-store');
      expect((await signupByEmail(t, seeded.project.id, 'ref@x.io')).referralCount).toBe(1);
      const created = await eventsOf(t, seeded.project.id, 'waitlist.signup.created');
      expect(created.map((item) => item.data)).toContainEqual(
        expect.objectContaining({ signup_id: row.id, source: 'widget', landing_path: `/w/${seeded.project.slug}` }),
      );
      expect(await mailsTo(t, seeded.project.id, 'new.person@x.io', 'waitlist.confirmation')).toHaveLength(1);
    });

    it('shows the form again with the message and writes nothing for an invalid email', async () => {
      const page = await submit(seeded.project.slug, `email=${encodeURIComponent('"><img src=x onerror=alert(1)>')}`).expect(400);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.text).toContain('Enter a valid email address');
      expect(page.text).toContain('value="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"');
      expect(page.text).not.toContain('<img');
      await submit(seeded.project.slug, '').expect(400);
      await submit(seeded.project.slug, `email=${'a'.repeat(250)}%40x.io`).expect(400);
      expect(await signupRows(t, seeded.project.id)).toEqual([]);
      expect(await t.db.manager.countBy(ContactEntity, { projectId: seeded.project.id })).toBe(0);
    });

    it('answers 409 with the form again for an email already on the list, changing nothing', async () => {
      await referrer('taken@x.io');
      const page = await submit(seeded.project.slug, 'email=TAKEN%40x.io').expect(409);
      expect(page.text).toContain('already on the waitlist');
      expect(await signupRows(t, seeded.project.id)).toHaveLength(1);
      expect(await t.db.manager.countBy(EventEntity, { projectId: seeded.project.id })).toBe(1);
      expect(await t.db.manager.countBy(MailMessageEntity, { projectId: seeded.project.id })).toBe(1);
    });

    it('ignores a malformed or foreign referral code and signs the person up', async () => {
      const other = await t.seedProject({ plan: 'indie' });
      const foreign = await t.api.as(other.secretKey).post('/v1/waitlist/signups').send({ email: 'f@x.io' }).expect(201);
      await submit(seeded.project.slug, `email=a%40x.io&ref=${foreign.body.data.referral_code}`).expect(201);
      await submit(seeded.project.slug, 'email=b%40x.io&ref=not-a-code').expect(201);
      const rows = await signupRows(t, seeded.project.id);
      expect(rows.map((row) => [row.email, row.referredBySignupId])).toEqual([
        ['a@x.io', null],
        ['b@x.io', null],
      ]);
    });

    it('answers an HTML 404 for an unknown slug and writes nothing', async () => {
      const page = await submit('no-such-waitlist', 'email=a%40x.io').expect(404);
      expect(page.text).toContain('Waitlist not found');
    });

    it('refuses a body over 16 KB with PAYLOAD_TOO_LARGE', async () => {
      const res = await submit(seeded.project.slug, `email=a%40x.io&pad=${'x'.repeat(17_000)}`).expect(413);
      expect(res.body.error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', message: 'The body is larger than 16 KB.' });
      expect(await signupRows(t, seeded.project.id)).toEqual([]);
    });
  });
});

/** Cloudflare siteverify's stand-in: accepts exactly the token "good". */
async function startVerifier(): Promise<{ url: string; server: Server; received: string[] }> {
  const received: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const token = new URLSearchParams(body).get('response') ?? '';
      received.push(token);
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ success: token === 'good' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/siteverify`, server, received };
}

describe('the hosted waitlist page with the bot check on', () => {
  let t: TestApp;
  let verifier: Awaited<ReturnType<typeof startVerifier>>;
  let seeded: SeededProject;

  beforeAll(async () => {
    verifier = await startVerifier();
    t = await TestApp.start({
      env: { TURNSTILE_SECRET: 'secret-1', TURNSTILE_SITE_KEY: '0x4AAAAAAA-site_key', TURNSTILE_VERIFY_URL: verifier.url },
    });
    seeded = await t.seedProject({ plan: 'indie', name: 'Bot Checked' });
  });
  afterAll(async () => {
    await t.close();
    verifier.server.closeAllConnections();
    await new Promise((resolve) => verifier.server.close(resolve));
  });

  it('shows the widget with the site key and lets only its origin load a script and a frame', async () => {
    const page = await t.api.get(`/w/${seeded.project.slug}`).expect(200);
    expect(page.text).toContain('<div class="cf-turnstile" data-sitekey="0x4AAAAAAA-site_key"></div>');
    expect(page.text).toContain('<script src="https://challenges.cloudflare.com/turnstile/v0/api.js" async defer></script>');
    const csp = page.headers['content-security-policy'];
    expect(csp).toContain('script-src https://challenges.cloudflare.com');
    expect(csp).toContain('frame-src https://challenges.cloudflare.com');
    expect(csp).not.toContain('unsafe-inline');
  });

  it("checks the widget's token: refused without it, accepted with a good one", async () => {
    const refused = await t.api.post(`/w/${seeded.project.slug}`).type('form').send('email=bot%40x.io').expect(400);
    expect(refused.text).toContain('bot-check');
    expect(refused.text).toContain('value="bot@x.io"');
    await t.api.post(`/w/${seeded.project.slug}`).type('form').send('email=bot%40x.io&cf-turnstile-response=bad').expect(400);
    const page = await t.api
      .post(`/w/${seeded.project.slug}`)
      .type('form')
      .send('email=human%40x.io&cf-turnstile-response=good')
      .expect(201);
    expect(page.text).toContain('<strong id="position">1</strong>');
    expect(verifier.received).toEqual(['bad', 'good']);
    expect((await signupRows(t, seeded.project.id)).map((row) => row.email)).toEqual(['human@x.io']);
  });
});
