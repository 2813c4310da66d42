import { ContactEntity } from '../../src/contacts/entities/contact.entity';
import { SeededProject, TestApp } from '../support/test-app';
import { BASE_URL, eventsOf, linkIn, mailsTo, signupByEmail, signupRows } from './waitlist-test-helpers';

const SIGNUP_ID = /^ws_[0-9A-HJKMNP-TV-Z]{26}$/;
const CODE = /^[0-9A-HJKMNP-TV-Z]{8}$/;

describe('waitlist signups', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.close());

  describe('POST /v1/waitlist/signups', () => {
    let seeded: SeededProject;

    // An empty waitlist of its own for every test, so each runs alone or in any order.
    beforeEach(async () => {
      seeded = await t.seedProject({ plan: 'indie', name: 'Acme Beta' });
    });

    const signUp = (email: string, referrerCode?: string) =>
      t.api.as(seeded.secretKey).post('/v1/waitlist/signups').send({ email, referrer_code: referrerCode }).expect(201);

    it('puts a new email in line and answers the signup result', async () => {
      const res = await t.api.as(seeded.secretKey).post('/v1/waitlist/signups').send({ email: 'Ada@Example.com' }).expect(201);
      expect(res.body).toEqual({
        data: {
          signup_id: expect.stringMatching(SIGNUP_ID),
          position: 1,
          referral_code: expect.stringMatching(CODE),
          referral_link: `${BASE_URL}/w/${seeded.project.slug}?ref=${res.body.data.referral_code}`,
          referrer_credited: false,
          confirmation_email_sent: true,
          already_registered: false,
          project_plan: 'indie',
        },
        error: null,
      });
      const row = await signupByEmail(t, seeded.project.id, 'ada@example.com');
      expect(row).toMatchObject({ id: res.body.data.signup_id, status: 'waiting', confirmedAt: null, channel: 'api' });
    });

    it('numbers positions 1, 2, 3 in arrival order', async () => {
      const { secretKey } = await t.seedProject();
      const positions = [];
      for (const email of ['p1@x.io', 'p2@x.io', 'p3@x.io']) {
        positions.push((await t.api.as(secretKey).post('/v1/waitlist/signups').send({ email }).expect(201)).body.data.position);
      }
      expect(positions).toEqual([1, 2, 3]);
    });

    it('accepts the publishable key from a browser, with open CORS, as a widget signup', async () => {
      const res = await t.api
        .as(seeded.publishableKey)
        .post('/v1/waitlist/signups')
        .set('Origin', 'https://acme.example')
        .send({ email: 'browser@x.io' })
        .expect(201);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      const [event] = (await eventsOf(t, seeded.project.id, 'waitlist.signup.created')).filter(
        (row) => row.data.signup_id === res.body.data.signup_id,
      );
      expect(event.data.source).toBe('widget');
    });

    it('records waitlist.signup.created with exactly the spec fields', async () => {
      const res = await t.api
        .as(seeded.secretKey)
        .post('/v1/waitlist/signups')
        .send({
          email: 'Event.Person@Example.com',
          metadata: { company: 'Engines', seats: 3, vip: true },
          source: {
            referrer: 'https://news.example/x',
            utm_source: 'news',
            utm_medium: 'email',
            utm_campaign: 'launch',
            landing_path: '/join',
          },
        })
        .expect(201);
      const events = (await eventsOf(t, seeded.project.id, 'waitlist.signup.created')).filter(
        (row) => row.data.signup_id === res.body.data.signup_id,
      );
      expect(events).toHaveLength(1);
      expect(events[0].data).toEqual({
        signup_id: res.body.data.signup_id,
        email: 'event.person@example.com',
        position: res.body.data.position,
        referral_code: res.body.data.referral_code,
        referred: false,
        source: 'api',
        utm_source: 'news',
        utm_medium: 'email',
        utm_campaign: 'launch',
        referrer: 'https://news.example/x',
        landing_path: '/join',
        metadata: { company: 'Engines', seats: 3, vip: true },
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      });
    });

    it('fills absent source fields with null and metadata with {} in the event', async () => {
      const res = await t.api.as(seeded.secretKey).post('/v1/waitlist/signups').send({ email: 'bare@x.io' }).expect(201);
      const [event] = (await eventsOf(t, seeded.project.id, 'waitlist.signup.created')).filter(
        (row) => row.data.signup_id === res.body.data.signup_id,
      );
      expect(event.data).toMatchObject({
        utm_source: null,
        utm_medium: null,
        utm_campaign: null,
        referrer: null,
        landing_path: null,
        metadata: {},
        referred: false,
      });
    });

    it('creates the contact with stage waitlist, the metadata as details and waitlist_emails consent', async () => {
      await t.api
        .as(seeded.secretKey)
        .post('/v1/waitlist/signups')
        .send({ email: 'Contact@X.io', metadata: { plan: 'pro' } })
        .expect(201);
      const contact = await t.db.manager.findOneByOrFail(ContactEntity, { projectId: seeded.project.id, email: 'contact@x.io' });
      expect(contact).toMatchObject({ stage: 'waitlist', details: { plan: 'pro' }, consents: { waitlist_emails: { status: 'granted' } } });
    });

    it('queues a confirmation email whose link confirms through HTTP', async () => {
      const res = await t.api.as(seeded.secretKey).post('/v1/waitlist/signups').send({ email: 'confirm.me@x.io' }).expect(201);
      await t.drainJobs();
      const [mail] = await mailsTo(t, seeded.project.id, 'confirm.me@x.io');
      expect(mail).toMatchObject({
        kind: 'waitlist.confirmation',
        status: 'logged',
        subject: 'Confirm your spot on the Acme Beta waitlist',
      });
      expect(mail.textBody).toContain(res.body.data.referral_link);
      expect(mail.htmlBody).toContain('Acme Beta');
      // Opening the link shows a button; pressing it (the POST) confirms.
      const prompt = await t.api.get(linkIn(mail.textBody, 'confirm')).expect(200);
      expect(prompt.text).toContain('Acme Beta');
      expect((await signupByEmail(t, seeded.project.id, 'confirm.me@x.io')).confirmedAt).toBeNull();
      const page = await t.api.post(linkIn(mail.textBody, 'confirm')).expect(200);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.text).toContain('Acme Beta');
      const row = await signupByEmail(t, seeded.project.id, 'confirm.me@x.io');
      expect(row.confirmedAt).toBeInstanceOf(Date);
      // Confirming again is harmless.
      await t.api.post(linkIn(mail.textBody, 'confirm')).expect(200);
      expect((await signupByEmail(t, seeded.project.id, 'confirm.me@x.io')).confirmedAt).toEqual(row.confirmedAt);
    });

    it('credits the referrer whose code of this project is given, case-insensitively', async () => {
      const referrer = await t.api.as(seeded.secretKey).post('/v1/waitlist/signups').send({ email: 'referrer@x.io' }).expect(201);
      const code: string = referrer.body.data.referral_code;
      const friend = await t.api
        .as(seeded.publishableKey)
        .post('/v1/waitlist/signups')
        .send({ email: 'friend@x.io', referrer_code: code.toLowerCase() })
        .expect(201);
      expect(friend.body.data.referrer_credited).toBe(true);
      expect(await signupByEmail(t, seeded.project.id, 'referrer@x.io')).toMatchObject({ referralCount: 1 });
      expect(await signupByEmail(t, seeded.project.id, 'friend@x.io')).toMatchObject({
        referredBySignupId: referrer.body.data.signup_id,
      });
      const [event] = (await eventsOf(t, seeded.project.id, 'waitlist.signup.created')).filter(
        (row) => row.data.signup_id === friend.body.data.signup_id,
      );
      expect(event.data.referred).toBe(true);
    });

    it('ignores an unknown referral code without failing', async () => {
      const res = await t.api
        .as(seeded.secretKey)
        .post('/v1/waitlist/signups')
        .send({ email: 'unknown.code@x.io', referrer_code: 'ZZZZ9999' })
        .expect(201);
      expect(res.body.data.referrer_credited).toBe(false);
    });

    it('answers 409 DUPLICATE_SIGNUP for a known email in any case, writing nothing', async () => {
      await signUp('ada@example.com');
      const referrer = (await signUp('referrer@x.io')).body.data;
      const written = async () => ({
        signups: (await signupRows(t, seeded.project.id)).length,
        events: (await eventsOf(t, seeded.project.id, 'waitlist.signup.created')).length,
        mails: (await mailsTo(t, seeded.project.id, 'ada@example.com')).length,
      });
      expect(await written()).toEqual({ signups: 2, events: 2, mails: 1 });
      const res = await t.api
        .as(seeded.secretKey)
        .post('/v1/waitlist/signups')
        .send({ email: 'ADA@example.COM', referrer_code: referrer.referral_code })
        .expect(409);
      expect(res.body).toMatchObject({ data: null, error: { code: 'DUPLICATE_SIGNUP', param: 'email' } });
      expect(await written()).toEqual({ signups: 2, events: 2, mails: 1 });
      expect((await signupByEmail(t, seeded.project.id, 'referrer@x.io')).referralCount).toBe(0);
      // The position was given back: the next signup takes the next number.
      expect((await signUp('after.dup@x.io')).body.data.position).toBe(3);
    });

    it('replays an idempotent signup with the identical answer and writes nothing new', async () => {
      const body = { email: 'idem@x.io', metadata: { a: 1 } };
      const first = await t.api
        .as(seeded.secretKey)
        .post('/v1/waitlist/signups')
        .set('Idempotency-Key', 'signup-idem-1')
        .send(body)
        .expect(201);
      const counts = async () => ({
        signups: (await signupRows(t, seeded.project.id)).length,
        events: (await eventsOf(t, seeded.project.id, 'waitlist.signup.created')).length,
        mails: (await mailsTo(t, seeded.project.id, 'idem@x.io')).length,
      });
      const before = await counts();
      const replay = await t.api
        .as(seeded.secretKey)
        .post('/v1/waitlist/signups')
        .set('Idempotency-Key', 'signup-idem-1')
        .send(body)
        .expect(201);
      expect(replay.body).toEqual(first.body);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.headers['x-request-id']).toBe(first.headers['x-request-id']);
      expect(await counts()).toEqual(before);
      const conflict = await t.api
        .as(seeded.secretKey)
        .post('/v1/waitlist/signups')
        .set('Idempotency-Key', 'signup-idem-1')
        .send({ email: 'other@x.io' })
        .expect(409);
      expect(conflict.body.error.code).toBe('IDEMPOTENCY_CONFLICT');
    });

    it('reports plans above builder as builder', async () => {
      const scale = await t.seedProject({ plan: 'scale' });
      const res = await t.api.as(scale.secretKey).post('/v1/waitlist/signups').send({ email: 'big@x.io' }).expect(201);
      expect(res.body.data.project_plan).toBe('builder');
    });

    it('keeps projects apart: same email in two projects, codes of one not credited in the other', async () => {
      await signUp('ada@example.com');
      const other = await t.seedProject();
      const ada = await signupByEmail(t, seeded.project.id, 'ada@example.com');
      const res = await t.api
        .as(other.secretKey)
        .post('/v1/waitlist/signups')
        .send({ email: 'ada@example.com', referrer_code: ada.referralCode })
        .expect(201);
      expect(res.body.data).toMatchObject({ position: 1, referrer_credited: false });
      expect((await signupByEmail(t, seeded.project.id, 'ada@example.com')).referralCount).toBe(ada.referralCount);
    });

    it('answers 401 MISSING_AUTH without a key and INVALID_API_KEY for an unknown one', async () => {
      const missing = await t.api.post('/v1/waitlist/signups').send({ email: 'nokey@x.io' }).expect(401);
      expect(missing.body).toMatchObject({ data: null, error: { code: 'MISSING_AUTH' } });
      const invalid = await t.api
        .as('svc_live_' + 'x'.repeat(32))
        .post('/v1/waitlist/signups')
        .send({ email: 'nokey@x.io' })
        .expect(401);
      expect(invalid.body.error.code).toBe('INVALID_API_KEY');
    });

    it.each([
      ['a missing email', {}, 'email'],
      ['an invalid email', { email: 'not-an-email' }, 'email'],
      ['an email over 254 characters', { email: `${'a'.repeat(60)}@${'d'.repeat(63)}.${'d'.repeat(63)}.${'d'.repeat(63)}.io` }, 'email'],
      ['a referrer_code of 6 characters', { email: 'a@x.io', referrer_code: 'ABC123' }, 'referrer_code'],
      ['a referrer_code of 9 characters', { email: 'a@x.io', referrer_code: 'ABCD12345' }, 'referrer_code'],
      ['a referrer_code with a hyphen', { email: 'a@x.io', referrer_code: 'ABCD-123' }, 'referrer_code'],
      ['nested metadata', { email: 'a@x.io', metadata: { nested: { a: 1 } } }, 'metadata'],
      ['a list in metadata', { email: 'a@x.io', metadata: { list: [1] } }, 'metadata'],
      ['metadata that is not an object', { email: 'a@x.io', metadata: 'text' }, 'metadata'],
      ['a source that is not an object', { email: 'a@x.io', source: 'newsletter' }, 'source'],
      ['an unknown source key', { email: 'a@x.io', source: { foo: 'x' } }, 'source.foo'],
      ['a referrer over 2048', { email: 'a@x.io', source: { referrer: 'r'.repeat(2049) } }, 'source.referrer'],
      ['a utm_source over 255', { email: 'a@x.io', source: { utm_source: 's'.repeat(256) } }, 'source.utm_source'],
      ['a utm_medium over 255', { email: 'a@x.io', source: { utm_medium: 'm'.repeat(256) } }, 'source.utm_medium'],
      ['a utm_campaign over 255', { email: 'a@x.io', source: { utm_campaign: 'c'.repeat(256) } }, 'source.utm_campaign'],
      ['a landing_path over 512', { email: 'a@x.io', source: { landing_path: '/'.repeat(513) } }, 'source.landing_path'],
      ['a number as utm_source', { email: 'a@x.io', source: { utm_source: 5 } }, 'source.utm_source'],
      ['a number as turnstile_token', { email: 'a@x.io', turnstile_token: 5 }, 'turnstile_token'],
      ['an unknown field', { email: 'a@x.io', position: 1 }, 'position'],
    ])('refuses %s with VALIDATION_ERROR on its field', async (_case, body, param) => {
      const res = await t.api.as(seeded.secretKey).post('/v1/waitlist/signups').send(body).expect(400);
      expect(res.body).toMatchObject({ data: null, error: { code: 'VALIDATION_ERROR', param } });
    });

    it('accepts every field at its limit', async () => {
      const res = await t.api
        .as(seeded.secretKey)
        .post('/v1/waitlist/signups')
        .send({
          email: `${'l'.repeat(64)}@${'d'.repeat(63)}.${'d'.repeat(63)}.${'d'.repeat(58)}.io`,
          metadata: { s: 'x', n: 1.5, b: false },
          source: {
            referrer: 'r'.repeat(2048),
            utm_source: 's'.repeat(255),
            utm_medium: 'm'.repeat(255),
            utm_campaign: 'c'.repeat(255),
            landing_path: '/'.repeat(512),
          },
        })
        .expect(201);
      expect(res.body.data.signup_id).toMatch(SIGNUP_ID);
    });
  });

  describe('GET /v1/waitlist/signups', () => {
    const emails = ['l1@x.io', 'l2@x.io', 'l3@x.io', 'l4@x.io', 'l5@x.io'];

    /** Six people in line; l6 came through l1's link; the first two are invited. */
    async function seedListed(): Promise<SeededProject> {
      const seeded = await t.seedProject({ plan: 'indie' });
      for (const email of emails) await t.api.as(seeded.secretKey).post('/v1/waitlist/signups').send({ email }).expect(201);
      const first = await signupByEmail(t, seeded.project.id, 'l1@x.io');
      await t.api
        .as(seeded.secretKey)
        .post('/v1/waitlist/signups')
        .send({ email: 'L6@x.io', referrer_code: first.referralCode, metadata: { k: 'v' }, source: { utm_source: 'news' } })
        .expect(201);
      await t.api.as(seeded.secretKey).post('/v1/waitlist/invites').send({ count: 2 }).expect(200);
      return seeded;
    }

    it('lists signups in line order with referral, confirmation and invite status', async () => {
      const seeded = await seedListed();
      const res = await t.api.as(seeded.secretKey).get('/v1/waitlist/signups').expect(200);
      expect(res.body.meta).toEqual({ next_cursor: null, has_more: false });
      expect(res.body.data.map((item: { email: string }) => item.email)).toEqual([...emails, 'l6@x.io']);
      expect(res.body.data[0]).toEqual({
        signup_id: expect.stringMatching(SIGNUP_ID),
        email: 'l1@x.io',
        position: 1,
        status: 'invited',
        confirmed: false,
        confirmed_at: null,
        invited_at: expect.any(String),
        unsubscribed_at: null,
        referral_code: expect.stringMatching(CODE),
        referral_count: 1,
        referred_by: null,
        source: { referrer: null, utm_source: null, utm_medium: null, utm_campaign: null, landing_path: null },
        metadata: {},
        created_at: expect.any(String),
      });
      expect(res.body.data[5]).toMatchObject({
        referred_by: res.body.data[0].signup_id,
        status: 'waiting',
        metadata: { k: 'v' },
        source: { utm_source: 'news' },
      });
    });

    it('pages with an opaque cursor', async () => {
      const seeded = await seedListed();
      const first = await t.api.as(seeded.secretKey).get('/v1/waitlist/signups?limit=4').expect(200);
      expect(first.body.data.map((item: { position: number }) => item.position)).toEqual([1, 2, 3, 4]);
      expect(first.body.meta.has_more).toBe(true);
      const second = await t.api
        .as(seeded.secretKey)
        .get(`/v1/waitlist/signups?limit=4&cursor=${encodeURIComponent(first.body.meta.next_cursor)}`)
        .expect(200);
      expect(second.body.data.map((item: { position: number }) => item.position)).toEqual([5, 6]);
      expect(second.body.meta).toEqual({ next_cursor: null, has_more: false });
    });

    it('filters by status and by email, case-insensitively', async () => {
      const seeded = await seedListed();
      const invited = await t.api.as(seeded.secretKey).get('/v1/waitlist/signups?status=invited').expect(200);
      expect(invited.body.data.map((item: { email: string }) => item.email)).toEqual(['l1@x.io', 'l2@x.io']);
      const one = await t.api.as(seeded.secretKey).get('/v1/waitlist/signups?email=L3@X.IO').expect(200);
      expect(one.body.data.map((item: { email: string }) => item.email)).toEqual(['l3@x.io']);
      const none = await t.api.as(seeded.secretKey).get('/v1/waitlist/signups?status=unsubscribed').expect(200);
      expect(none.body.data).toEqual([]);
    });

    it('shows nothing of another project', async () => {
      await seedListed();
      const other = await t.seedProject();
      const res = await t.api.as(other.secretKey).get('/v1/waitlist/signups?email=l1@x.io').expect(200);
      expect(res.body.data).toEqual([]);
    });

    it('refuses the publishable key with KEY_INSUFFICIENT_PERMISSIONS and no key with MISSING_AUTH', async () => {
      const seeded = await t.seedProject({ plan: 'indie' });
      const publishable = await t.api.as(seeded.publishableKey).get('/v1/waitlist/signups').expect(403);
      expect(publishable.body).toMatchObject({ data: null, error: { code: 'KEY_INSUFFICIENT_PERMISSIONS' } });
      const missing = await t.api.get('/v1/waitlist/signups').expect(401);
      expect(missing.body.error.code).toBe('MISSING_AUTH');
    });

    it.each([
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=abc', 'limit'],
      ['status=paused', 'status'],
      ['cursor=not-a-cursor', 'cursor'],
      [`cursor=${Buffer.from(JSON.stringify({ position: 'x' })).toString('base64url')}`, 'cursor'],
    ])('refuses ?%s with VALIDATION_ERROR on %s', async (query, param) => {
      const seeded = await t.seedProject({ plan: 'indie' });
      const res = await t.api.as(seeded.secretKey).get(`/v1/waitlist/signups?${query}`).expect(400);
      expect(res.body).toMatchObject({ data: null, error: { code: 'VALIDATION_ERROR', param } });
    });
  });
});
