import { FAKE_STRIPE_SECRETS } from '../support/fake-stripe';
import { provisionOwner, type DashboardOwner } from '../support/dashboard-owner';
import { TestIdentityProvider } from '../support/identity-provider';
import { ProjectsService } from '../../src/projects/projects.service';
import { TestApp } from '../support/test-app';

/**
 * Emails and URLs that the usual validators accept but that the service must not: addresses with
 * a quoted local part or control characters (header injection through the mailer), and URLs that
 * class-validator's isURL accepts and the WHATWG parser refuses (a 500 where they are read).
 */

const HOSTILE_EMAILS: [string, string][] = [
  ['CR LF in a quoted local part', '"a\r\nBcc: victim@evil.test"@example.com'],
  ['a comma in a quoted local part', '"a,victim@evil.test"@example.com'],
  ['angle brackets in a quoted local part', '"<victim@evil.test>"@example.com'],
  ['a control character in a quoted local part', '"a\u0001b"@example.com'],
  ['a line separator', 'ada\u2028@example.com'],
];

/** Accepted by isURL, refused by `new URL()`. */
const UNPARSABLE_URLS = ['https://xn--a.example.com/billing', 'https://[fe80::1%25eth0]/billing', 'https://\u2488.example.com/billing'];

describe('hostile emails and URLs', () => {
  let t: TestApp;
  let idp: TestIdentityProvider;
  let owner: DashboardOwner;

  beforeAll(async () => {
    idp = await TestIdentityProvider.start();
    // Billing configured; its provider is never reached, since every request here is refused first.
    t = await TestApp.start({ env: idp.env({ ...FAKE_STRIPE_SECRETS, STRIPE_API_URL: 'http://127.0.0.1:9' }) });
    owner = await provisionOwner(t.api, idp, 'hostile-input-owner');
    await t.get(ProjectsService).setPlan(owner.projectId, 'builder');
  });
  afterAll(async () => {
    await t.close();
    await idp.close();
  });

  const refusal = (res: { status: number; body: { error?: { code?: string; param?: string; message?: string } } }) => ({
    status: res.status,
    code: res.body.error?.code,
    param: res.body.error?.param,
  });

  describe('emails with a quoted local part or control characters, on every route that takes one', () => {
    const key = () => t.api.as(owner.secretKey);
    const routes: [string, string, (email: string) => ReturnType<ReturnType<typeof key>['get']>][] = [
      ['POST /v1/waitlist/signups', 'email', (email) => key().post('/v1/waitlist/signups').send({ email })],
      ['POST /v1/changelog/subscribers', 'email', (email) => key().post('/v1/changelog/subscribers').send({ email })],
      [
        'POST /v1/feedback',
        'email',
        (email) => key().post('/v1/feedback').send({ feedback_text: 'The export button does nothing.', email }),
      ],
      ['POST /v1/analytics/identify', 'email', (email) => key().post('/v1/analytics/identify').send({ user_id: 'user_1', email })],
      ['POST /v1/waitlist/invites', 'specific_email', (email) => key().post('/v1/waitlist/invites').send({ specific_email: email })],
      [
        'POST /v1/waitlist/signups/resend-confirmation',
        'email',
        (email) => key().post('/v1/waitlist/signups/resend-confirmation').send({ email }),
      ],
      [
        'POST /v1/notifications',
        'emails',
        (email) =>
          key()
            .post('/v1/notifications')
            .send({ title: 'Hello', body: 'Hello there.', emails: [email] }),
      ],
      [
        'POST /v1/notifications/audience',
        'emails',
        (email) =>
          key()
            .post('/v1/notifications/audience')
            .send({ emails: [email] }),
      ],
      ['GET /v1/waitlist/signups?email=', 'email', (email) => key().get(`/v1/waitlist/signups?email=${encodeURIComponent(email)}`)],
    ];

    it.each(routes)('%s refuses them with VALIDATION_ERROR on %s', async (_route, param, send) => {
      const answers: Record<string, unknown> = {};
      for (const [label, email] of HOSTILE_EMAILS) answers[label] = refusal(await send(email));
      const expected = { status: 400, code: 'VALIDATION_ERROR', param };
      expect(answers).toEqual(Object.fromEntries(HOSTILE_EMAILS.map(([label]) => [label, expected])));
    });

    it('says why, and stores none of them', async () => {
      const res = await t.api.as(owner.secretKey).post('/v1/waitlist/signups').send({ email: '"a,b"@example.com' });
      expect(res.body.error.message).toBe('Email must not have a quoted local part: write the address without quotation marks.');
      const crlf = await t.api.as(owner.secretKey).post('/v1/changelog/subscribers').send({ email: '"a\r\nb"@example.com' });
      expect(crlf.body.error.message).toBe('Email must not contain control characters (line breaks, tabs, NUL, direction marks).');
      const group = await t.api
        .as(owner.secretKey)
        .post('/v1/notifications/audience')
        .send({ emails: ['ada@example.com', '"<victim@evil.test>"@example.com'] });
      expect(group.body.error.message).toBe('Emails.1 must not have a quoted local part: write the address without quotation marks.');
      const stats = await t.api.as(owner.secretKey).get('/v1/waitlist/stats').expect(200);
      expect(stats.body.data.total_signups).toBe(0);
      const subscribers = await t.api.as(owner.secretKey).get('/v1/changelog/subscribers').expect(200);
      expect(subscribers.body.data).toEqual([]);
      const contacts = await t.api.as(owner.secretKey).get('/v1/contacts').expect(200);
      expect(contacts.body.data).toEqual([]);
    });

    it('the hosted signup form shows the form again with the email message', async () => {
      const slug = (await t.get(ProjectsService).findById(owner.projectId))!.slug;
      for (const [, email] of HOSTILE_EMAILS) {
        const res = await t.api.post(`/w/${slug}`).type('form').send({ email });
        expect({ status: res.status, type: res.headers['content-type'] }).toEqual({ status: 400, type: 'text/html; charset=utf-8' });
        expect(res.text).toContain('Enter a valid email address');
      }
    });
  });

  describe('URLs that isURL accepts but the URL parser refuses', () => {
    const dashboard = (path: string) => t.api.as(owner.token).post(path).set('X-Service-Project', owner.projectId);

    it.each([
      [
        'checkout success_url',
        'success_url',
        (url: string) => dashboard('/v1/dashboard/billing/checkout').send({ plan: 'indie', success_url: url }),
      ],
      [
        'checkout cancel_url',
        'cancel_url',
        (url: string) => dashboard('/v1/dashboard/billing/checkout').send({ plan: 'indie', cancel_url: url }),
      ],
      ['portal return_url', 'return_url', (url: string) => dashboard('/v1/dashboard/billing/portal').send({ return_url: url })],
      [
        'feedback page_url',
        'page_url',
        (url: string) =>
          t.api.as(owner.secretKey).post('/v1/feedback').send({ feedback_text: 'The export button does nothing.', page_url: url }),
      ],
    ])('%s answers 400 VALIDATION_ERROR on the field', async (_name, param, send) => {
      const answers: Record<string, unknown> = {};
      for (const url of UNPARSABLE_URLS) answers[url] = refusal(await send(url));
      const expected = { status: 400, code: 'VALIDATION_ERROR', param };
      expect(answers).toEqual(Object.fromEntries(UNPARSABLE_URLS.map((url) => [url, expected])));
    });

    it('still accepts ordinary URLs, and a portal return_url of null means the default', async () => {
      const feedback = await t.api
        .as(owner.secretKey)
        .post('/v1/feedback')
        .send({ feedback_text: 'The export button does nothing.', page_url: 'http://localhost:3000/settings_page/export' })
        .expect(201);
      expect(feedback.body.data.page_url).toBe('http://localhost:3000/settings_page/export');
      // No checkout yet, so no billing account: the answer of a portal call with the default return URL.
      const portal = await dashboard('/v1/dashboard/billing/portal').send({ return_url: null });
      expect(refusal(portal)).toEqual({ status: 404, code: 'NO_BILLING_ACCOUNT', param: undefined });
    });
  });
});
