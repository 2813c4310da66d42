import request from 'supertest';
import { ContactEntity } from '../../src/contacts/entities/contact.entity';
import { SeededProject, TestApp } from '../support/test-app';
import { eventsOf, linkIn, mailsTo, signupByEmail, signupRows } from './waitlist-test-helpers';

describe('waitlist invites, resends and email links', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.close());

  async function join(seeded: SeededProject, ...emails: string[]): Promise<void> {
    for (const email of emails) await t.api.as(seeded.secretKey).post('/v1/waitlist/signups').send({ email }).expect(201);
  }

  async function contactOf(projectId: string, email: string): Promise<ContactEntity> {
    return t.db.manager.findOneByOrFail(ContactEntity, { projectId, email });
  }

  describe('POST /v1/waitlist/invites', () => {
    /** Six people waiting in line, i1 first. */
    async function seedLine(): Promise<SeededProject> {
      const seeded = await t.seedProject({ plan: 'indie', name: 'Invite Co' });
      await join(seeded, 'i1@x.io', 'i2@x.io', 'i3@x.io', 'i4@x.io', 'i5@x.io', 'i6@x.io');
      return seeded;
    }

    it('invites the next N waiting people in line order, with one event, emails and contact stages', async () => {
      const seeded = await seedLine();
      const res = await t.api.as(seeded.secretKey).post('/v1/waitlist/invites').send({ count: 2 }).expect(200);
      const [first, second] = await signupRows(t, seeded.project.id);
      expect(res.body).toEqual({
        data: {
          invited_count: 2,
          invited: [
            { signup_id: first.id, email: 'i1@x.io' },
            { signup_id: second.id, email: 'i2@x.io' },
          ],
        },
        error: null,
      });
      expect([first.status, second.status]).toEqual(['invited', 'invited']);
      expect(first.invitedAt).toBeInstanceOf(Date);
      const events = await eventsOf(t, seeded.project.id, 'waitlist.signups.invited');
      expect(events.map((event) => event.data)).toEqual([
        { count: 2, invited: res.body.data.invited, invited_at: first.invitedAt?.toISOString() },
      ]);
      await t.drainJobs();
      const [invite] = await mailsTo(t, seeded.project.id, 'i1@x.io', 'waitlist.invite');
      expect(invite).toMatchObject({ status: 'logged', subject: "You're invited to Invite Co" });
      expect(invite.textBody).toContain('/v1/waitlist/unsubscribe?token=');
      expect(await mailsTo(t, seeded.project.id, 'i3@x.io', 'waitlist.invite')).toEqual([]);
      expect((await contactOf(seeded.project.id, 'i1@x.io')).stage).toBe('invited');
      expect((await contactOf(seeded.project.id, 'i3@x.io')).stage).toBe('waitlist');
    });

    it('invites one specific person out of line, case-insensitively', async () => {
      const seeded = await seedLine();
      const res = await t.api.as(seeded.secretKey).post('/v1/waitlist/invites').send({ specific_email: 'I5@X.io' }).expect(200);
      expect(res.body.data).toMatchObject({ invited_count: 1, invited: [{ email: 'i5@x.io' }] });
      expect((await signupByEmail(t, seeded.project.id, 'i5@x.io')).status).toBe('invited');
      expect((await signupByEmail(t, seeded.project.id, 'i3@x.io')).status).toBe('waiting');
    });

    it('answers invited_count 0 with no event for someone already invited', async () => {
      const seeded = await seedLine();
      const invite = () => t.api.as(seeded.secretKey).post('/v1/waitlist/invites').send({ specific_email: 'i1@x.io' }).expect(200);
      expect((await invite()).body.data.invited_count).toBe(1);
      const res = await invite();
      expect(res.body.data).toEqual({ invited_count: 0, invited: [] });
      expect(await eventsOf(t, seeded.project.id, 'waitlist.signups.invited')).toHaveLength(1);
      expect(await mailsTo(t, seeded.project.id, 'i1@x.io', 'waitlist.invite')).toHaveLength(1);
    });

    it('never invites unsubscribed people, by count or by email', async () => {
      const project = await t.seedProject({ plan: 'builder' });
      await join(project, 'u1@x.io', 'u2@x.io', 'u3@x.io');
      await t.drainJobs();
      const [confirmation] = await mailsTo(t, project.project.id, 'u1@x.io');
      await t.api.post(linkIn(confirmation.textBody, 'unsubscribe')).expect(200);
      const byEmail = await t.api.as(project.secretKey).post('/v1/waitlist/invites').send({ specific_email: 'u1@x.io' }).expect(200);
      expect(byEmail.body.data.invited_count).toBe(0);
      const byCount = await t.api.as(project.secretKey).post('/v1/waitlist/invites').send({ count: 10 }).expect(200);
      expect(byCount.body.data.invited.map((item: { email: string }) => item.email)).toEqual(['u2@x.io', 'u3@x.io']);
      expect((await signupByEmail(t, project.project.id, 'u1@x.io')).status).toBe('unsubscribed');
    });

    it('replays a wave sent with the same Idempotency-Key instead of sending a second one', async () => {
      const project = await t.seedProject({ plan: 'indie' });
      await join(project, 'w1@x.io', 'w2@x.io', 'w3@x.io');
      const first = await t.api
        .as(project.secretKey)
        .post('/v1/waitlist/invites')
        .set('Idempotency-Key', 'wave-1')
        .send({ count: 1 })
        .expect(200);
      const replay = await t.api
        .as(project.secretKey)
        .post('/v1/waitlist/invites')
        .set('Idempotency-Key', 'wave-1')
        .send({ count: 1 })
        .expect(200);
      expect(replay.body).toEqual(first.body);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect((await signupRows(t, project.project.id)).map((row) => row.status)).toEqual(['invited', 'waiting', 'waiting']);
      expect(await eventsOf(t, project.project.id, 'waitlist.signups.invited')).toHaveLength(1);
    });

    it('answers invited_count 0 and records nothing when nobody is waiting', async () => {
      const project = await t.seedProject({ plan: 'indie' });
      const res = await t.api.as(project.secretKey).post('/v1/waitlist/invites').send({ count: 5 }).expect(200);
      expect(res.body.data).toEqual({ invited_count: 0, invited: [] });
      expect(await eventsOf(t, project.project.id, 'waitlist.signups.invited')).toEqual([]);
    });

    it('answers 404 NOT_FOUND for an unknown email and for a signup of another project', async () => {
      const seeded = await seedLine();
      const unknown = await t.api.as(seeded.secretKey).post('/v1/waitlist/invites').send({ specific_email: 'nobody@x.io' }).expect(404);
      expect(unknown.body).toMatchObject({ data: null, error: { code: 'NOT_FOUND', param: 'specific_email' } });
      const other = await t.seedProject({ plan: 'indie' });
      const foreign = await t.api.as(other.secretKey).post('/v1/waitlist/invites').send({ specific_email: 'i3@x.io' }).expect(404);
      expect(foreign.body.error.code).toBe('NOT_FOUND');
      expect((await signupByEmail(t, seeded.project.id, 'i3@x.io')).status).toBe('waiting');
    });

    it.each([
      ['both count and specific_email', { count: 1, specific_email: 'i3@x.io' }, 'specific_email'],
      ['neither', {}, 'count'],
      ['count 0', { count: 0 }, 'count'],
      ['count 501', { count: 501 }, 'count'],
      ['a fractional count', { count: 1.5 }, 'count'],
      ['an invalid specific_email', { specific_email: 'nope' }, 'specific_email'],
      ['an unknown field', { count: 1, message: 'hi' }, 'message'],
    ])('refuses %s with VALIDATION_ERROR', async (_case, body, param) => {
      const seeded = await t.seedProject({ plan: 'indie' });
      const res = await t.api.as(seeded.secretKey).post('/v1/waitlist/invites').send(body).expect(400);
      expect(res.body).toMatchObject({ data: null, error: { code: 'VALIDATION_ERROR', param } });
    });

    it('needs a plan with invites, a secret key and a key at all', async () => {
      const seeded = await t.seedProject({ plan: 'indie' });
      const free = await t.seedProject({ plan: 'free' });
      const gated = await t.api.as(free.secretKey).post('/v1/waitlist/invites').send({ count: 1 }).expect(403);
      expect(gated.body).toMatchObject({ data: null, error: { code: 'PLAN_UPGRADE_REQUIRED' } });
      const publishable = await t.api.as(seeded.publishableKey).post('/v1/waitlist/invites').send({ count: 1 }).expect(403);
      expect(publishable.body.error.code).toBe('KEY_INSUFFICIENT_PERMISSIONS');
      expect((await t.api.post('/v1/waitlist/invites').send({ count: 1 }).expect(401)).body.error.code).toBe('MISSING_AUTH');
    });

    it('answers 429 RATE_LIMITED after 20 waves in a minute', async () => {
      const project = await t.seedProject({ plan: 'indie' });
      for (let wave = 0; wave < 20; wave += 1)
        await t.api.as(project.secretKey).post('/v1/waitlist/invites').send({ count: 1 }).expect(200);
      const res = await t.api.as(project.secretKey).post('/v1/waitlist/invites').send({ count: 1 }).expect(429);
      expect(res.body.error.code).toBe('RATE_LIMITED');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    });
  });

  describe('POST /v1/waitlist/signups/resend-confirmation', () => {
    /** Three people who just signed up, so each has had one confirmation email. */
    async function seedSignups(): Promise<SeededProject> {
      const seeded = await t.seedProject({ plan: 'indie' });
      await join(seeded, 'r1@x.io', 'r2@x.io', 'r3@x.io');
      return seeded;
    }
    const resend = (seeded: SeededProject, email: string) =>
      t.api.as(seeded.secretKey).post('/v1/waitlist/signups/resend-confirmation').send({ email });

    afterEach(() => t.clock.reset());

    it('sends once per 5 minutes, counting the signup email, with Retry-After', async () => {
      const seeded = await seedSignups();
      const early = await t.api
        .as(seeded.secretKey)
        .post('/v1/waitlist/signups/resend-confirmation')
        .send({ email: 'R1@x.io' })
        .expect(429);
      expect(early.body).toMatchObject({ data: null, error: { code: 'RATE_LIMITED' } });
      expect(Number(early.headers['retry-after'])).toBeGreaterThan(240);
      expect(Number(early.headers['retry-after'])).toBeLessThanOrEqual(300);

      t.clock.advance(5 * 60_000 + 1_000);
      const sent = await t.api.as(seeded.secretKey).post('/v1/waitlist/signups/resend-confirmation').send({ email: 'R1@x.io' }).expect(200);
      expect(sent.body).toEqual({ data: { email: 'r1@x.io', status: 'sent' }, error: null });
      expect(await mailsTo(t, seeded.project.id, 'r1@x.io', 'waitlist.confirmation')).toHaveLength(2);

      const again = await t.api
        .as(seeded.secretKey)
        .post('/v1/waitlist/signups/resend-confirmation')
        .send({ email: 'r1@x.io' })
        .expect(429);
      expect(Number(again.headers['retry-after'])).toBe(300);
    });

    it('gives the new email its own working link, and the first email still works', async () => {
      const seeded = await seedSignups();
      t.clock.advance(5 * 60_000 + 1_000);
      expect((await resend(seeded, 'r1@x.io').expect(200)).body.data.status).toBe('sent');
      const [first, second] = await mailsTo(t, seeded.project.id, 'r1@x.io', 'waitlist.confirmation');
      expect(linkIn(first.textBody, 'confirm')).not.toBe(linkIn(second.textBody, 'confirm'));
      await t.api.post(linkIn(second.textBody, 'confirm')).expect(200);
      await t.api.post(linkIn(first.textBody, 'confirm')).expect(200);
      expect((await signupByEmail(t, seeded.project.id, 'r1@x.io')).confirmedAt).toBeInstanceOf(Date);
    });

    it('sends nothing to someone already confirmed or unsubscribed', async () => {
      const seeded = await seedSignups();
      const [confirmation] = await mailsTo(t, seeded.project.id, 'r1@x.io');
      await t.api.post(linkIn(confirmation.textBody, 'confirm')).expect(200);
      const [mail] = await mailsTo(t, seeded.project.id, 'r2@x.io');
      await t.api.post(linkIn(mail.textBody, 'unsubscribe')).expect(200);
      t.clock.advance(5 * 60_000 + 1_000);
      const confirmed = await resend(seeded, 'r1@x.io').expect(200);
      expect(confirmed.body.data).toEqual({ email: 'r1@x.io', status: 'already_confirmed' });
      const unsubscribed = await t.api
        .as(seeded.secretKey)
        .post('/v1/waitlist/signups/resend-confirmation')
        .send({ email: 'r2@x.io' })
        .expect(200);
      expect(unsubscribed.body.data).toEqual({ email: 'r2@x.io', status: 'unsubscribed' });
      expect(await mailsTo(t, seeded.project.id, 'r1@x.io', 'waitlist.confirmation')).toHaveLength(1);
      expect(await mailsTo(t, seeded.project.id, 'r2@x.io', 'waitlist.confirmation')).toHaveLength(1);
    });

    it('answers 404 NOT_FOUND for an unknown email and for a signup of another project', async () => {
      const seeded = await seedSignups();
      const unknown = await t.api
        .as(seeded.secretKey)
        .post('/v1/waitlist/signups/resend-confirmation')
        .send({ email: 'ghost@x.io' })
        .expect(404);
      expect(unknown.body).toMatchObject({ data: null, error: { code: 'NOT_FOUND', param: 'email' } });
      const other = await t.seedProject({ plan: 'builder' });
      await t.api.as(other.secretKey).post('/v1/waitlist/signups/resend-confirmation').send({ email: 'r3@x.io' }).expect(404);
    });

    it('refuses a missing or invalid email with VALIDATION_ERROR', async () => {
      const seeded = await t.seedProject({ plan: 'indie' });
      for (const body of [{}, { email: 'nope' }]) {
        const res = await t.api.as(seeded.secretKey).post('/v1/waitlist/signups/resend-confirmation').send(body).expect(400);
        expect(res.body).toMatchObject({ data: null, error: { code: 'VALIDATION_ERROR', param: 'email' } });
      }
    });

    it('needs a plan with resends, a secret key and a key at all', async () => {
      const seeded = await t.seedProject({ plan: 'indie' });
      const free = await t.seedProject({ plan: 'free' });
      const gated = await t.api.as(free.secretKey).post('/v1/waitlist/signups/resend-confirmation').send({ email: 'r3@x.io' }).expect(403);
      expect(gated.body.error.code).toBe('PLAN_UPGRADE_REQUIRED');
      const publishable = await t.api
        .as(seeded.publishableKey)
        .post('/v1/waitlist/signups/resend-confirmation')
        .send({ email: 'r3@x.io' })
        .expect(403);
      expect(publishable.body.error.code).toBe('KEY_INSUFFICIENT_PERMISSIONS');
      await t.api.post('/v1/waitlist/signups/resend-confirmation').send({ email: 'r3@x.io' }).expect(401);
    });
  });

  describe('the confirm and unsubscribe links (GET shows a page, POST acts)', () => {
    /** Two people who just signed up, each with a confirmation email. */
    async function seedSignups(): Promise<SeededProject> {
      const seeded = await t.seedProject({ plan: 'indie', name: 'Links & Co <b>' });
      await join(seeded, 'k1@x.io', 'k2@x.io');
      return seeded;
    }

    it('changes nothing when a mail scanner opens every link of the email (GET, HEAD)', async () => {
      const seeded = await seedSignups();
      const [mail] = await mailsTo(t, seeded.project.id, 'k1@x.io');
      for (const kind of ['confirm', 'unsubscribe'] as const) {
        const link = linkIn(mail.textBody, kind);
        for (let scan = 0; scan < 3; scan += 1) await t.api.get(link).expect(200);
        await request(t.app.getHttpServer()).head(link).expect(200);
      }
      const row = await signupByEmail(t, seeded.project.id, 'k1@x.io');
      expect(row).toMatchObject({ status: 'waiting', confirmedAt: null, unsubscribedAt: null });
      expect((await contactOf(seeded.project.id, 'k1@x.io')).consents.waitlist_emails.status).toBe('granted');
    });

    it('shows an escaped page whose button posts back to the link, with a strict policy and no cache', async () => {
      const seeded = await seedSignups();
      const [mail] = await mailsTo(t, seeded.project.id, 'k1@x.io');
      const link = linkIn(mail.textBody, 'confirm');
      const page = await t.api.get(link).expect(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.headers['content-security-policy']).toMatch(/^default-src 'none'; style-src 'sha256-[^']+'; /);
      expect(page.headers['content-security-policy']).toContain("form-action 'self'");
      expect(page.headers['content-security-policy']).not.toMatch(/script-src|unsafe-inline/);
      expect(page.text).toContain('Links &amp; Co &lt;b&gt;');
      expect(page.text).not.toContain('<b>');
      expect(page.text).not.toContain('<script');
      const token = link.split('token=')[1];
      expect(page.text).toContain(`<form method="post" action="confirm?token=${token}">`);
    });

    it('confirms on the POST of the button, once', async () => {
      const seeded = await seedSignups();
      const [mail] = await mailsTo(t, seeded.project.id, 'k1@x.io');
      const link = linkIn(mail.textBody, 'confirm');
      // What the button of the page sends: a form post with no fields.
      const page = await t.api.post(link).type('form').send('').expect(200);
      expect(page.text).toContain('Email confirmed');
      expect(page.text).toContain('number 1 in line');
      const row = await signupByEmail(t, seeded.project.id, 'k1@x.io');
      expect(row.confirmedAt).toBeInstanceOf(Date);
      await t.api.post(link).expect(200);
      expect((await signupByEmail(t, seeded.project.id, 'k1@x.io')).confirmedAt).toEqual(row.confirmedAt);
      // Once confirmed, opening the link says so instead of offering the button again.
      const again = await t.api.get(link).expect(200);
      expect(again.text).toContain('Email confirmed');
      expect(again.text).not.toContain('<form');
    });

    it('unsubscribes on the POST of the button and withdraws the email consent', async () => {
      const seeded = await seedSignups();
      const [mail] = await mailsTo(t, seeded.project.id, 'k1@x.io');
      const link = linkIn(mail.textBody, 'unsubscribe');
      const prompt = await t.api.get(link).expect(200);
      expect(prompt.text).toContain(`action="unsubscribe?token=${link.split('token=')[1]}"`);
      const page = await t.api.post(link).type('form').send('').expect(200);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.text).toContain('Links &amp; Co');
      const row = await signupByEmail(t, seeded.project.id, 'k1@x.io');
      expect(row).toMatchObject({ status: 'unsubscribed', unsubscribedAt: expect.any(Date) });
      expect((await contactOf(seeded.project.id, 'k1@x.io')).consents.waitlist_emails.status).toBe('withdrawn');
      await t.api.post(link).expect(200);
      expect((await signupByEmail(t, seeded.project.id, 'k1@x.io')).unsubscribedAt).toEqual(row.unsubscribedAt);
      expect((await t.api.get(link).expect(200)).text).toContain('You have left');
    });

    it('unsubscribes through the link of an invite email', async () => {
      const seeded = await seedSignups();
      await t.api.as(seeded.secretKey).post('/v1/waitlist/invites').send({ specific_email: 'k2@x.io' }).expect(200);
      await t.drainJobs();
      const [invite] = await mailsTo(t, seeded.project.id, 'k2@x.io', 'waitlist.invite');
      await t.api.get(linkIn(invite.textBody, 'unsubscribe')).expect(200);
      expect((await signupByEmail(t, seeded.project.id, 'k2@x.io')).status).toBe('invited');
      await t.api.post(linkIn(invite.textBody, 'unsubscribe')).expect(200);
      expect(await signupByEmail(t, seeded.project.id, 'k2@x.io')).toMatchObject({ status: 'unsubscribed', invitedAt: expect.any(Date) });
    });

    it('offers one-click unsubscribe (RFC 8058) through List-Unsubscribe headers', async () => {
      const seeded = await seedSignups();
      await join(seeded, 'k3@x.io');
      const [mail] = await mailsTo(t, seeded.project.id, 'k3@x.io');
      const link = linkIn(mail.textBody, 'unsubscribe');
      expect(mail.headers).toEqual({
        'List-Unsubscribe': `<https://launch.test${link}>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      });
      // What a mail client sends: a form-encoded POST to the header's link.
      const page = await t.api.post(link).type('form').send('List-Unsubscribe=One-Click').expect(200);
      expect(page.headers['content-type']).toContain('text/html');
      expect(await signupByEmail(t, seeded.project.id, 'k3@x.io')).toMatchObject({ status: 'unsubscribed' });
      await t.api.post('/v1/waitlist/unsubscribe?token=made-up').expect(404);
    });

    it('accepts each token for its own purpose only, on GET and on POST', async () => {
      const seeded = await seedSignups();
      const [mail] = await mailsTo(t, seeded.project.id, 'k2@x.io', 'waitlist.confirmation');
      const confirmToken = linkIn(mail.textBody, 'confirm').split('token=')[1];
      const unsubscribeToken = linkIn(mail.textBody, 'unsubscribe').split('token=')[1];
      const wrong = await t.api.get(`/v1/waitlist/unsubscribe?token=${confirmToken}`).expect(404);
      expect(wrong.headers['content-type']).toContain('text/html');
      expect(wrong.text).not.toContain('<form');
      await t.api.post(`/v1/waitlist/unsubscribe?token=${confirmToken}`).expect(404);
      await t.api.get(`/v1/waitlist/confirm?token=${unsubscribeToken}`).expect(404);
      await t.api.post(`/v1/waitlist/confirm?token=${unsubscribeToken}`).expect(404);
      expect(await signupByEmail(t, seeded.project.id, 'k2@x.io')).toMatchObject({ status: 'waiting', confirmedAt: null });
    });

    it('answers an HTML 404 for an unknown token and VALIDATION_ERROR without one', async () => {
      const unknown = await t.api.get('/v1/waitlist/confirm?token=made-up').expect(404);
      expect(unknown.text).toContain('not valid');
      await t.api.post('/v1/waitlist/confirm?token=made-up').expect(404);
      const missing = await t.api.get('/v1/waitlist/unsubscribe').expect(400);
      expect(missing.body).toMatchObject({ data: null, error: { code: 'VALIDATION_ERROR', param: 'token' } });
      const missingPost = await t.api.post('/v1/waitlist/confirm').expect(400);
      expect(missingPost.body).toMatchObject({ data: null, error: { code: 'VALIDATION_ERROR', param: 'token' } });
    });
  });
});
