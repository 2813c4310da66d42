import { ChangelogSubscriberLabelEntity } from '../../src/changelog/entities/changelog-subscriber-label.entity';
import { ChangelogSubscriberTokenEntity } from '../../src/changelog/entities/changelog-subscriber-token.entity';
import { SeededProject, TestApp } from '../support/test-app';
import { eventsOf, mailsOf, seedLabel, subscriberLinkIn, subscriberRows, tokenOf } from './subscribers-test-helpers';

const SUBSCRIBER_ID = /^sub_[0-9A-HJKMNP-TV-Z]{26}$/;
const CONFIRMATION = 'changelog.subscriber_confirmation';

describe('changelog subscribers', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.close());
  afterEach(() => t.clock.reset());

  const subscribe = (key: string, body: Record<string, unknown>) => t.api.as(key).post('/v1/changelog/subscribers').send(body);

  describe('POST /v1/changelog/subscribers', () => {
    it('creates a confirmed subscriber with a secret key and sends changelog.subscriber.created at once', async () => {
      const seeded = await t.seedProject({ plan: 'indie' });
      await seedLabel(t, seeded.project.id, 'api');
      await seedLabel(t, seeded.project.id, 'mobile');
      t.clock.freeze('2026-11-20T10:00:00.000Z');
      const res = await subscribe(seeded.secretKey, { email: '  Ada@Example.com ', labels: ['mobile', 'api', 'mobile'] }).expect(201);
      expect(res.body).toEqual({
        data: {
          id: expect.stringMatching(SUBSCRIBER_ID),
          project_id: seeded.project.id,
          email: 'ada@example.com',
          confirmed: true,
          created_at: '2026-11-20T10:00:00.000Z',
        },
        error: null,
      });
      const events = await eventsOf(t, seeded.project.id, 'changelog.subscriber.created');
      expect(events.map((event) => event.data)).toEqual([
        { subscriber_id: res.body.data.id, email: 'ada@example.com', created_at: res.body.data.created_at, labels: ['api', 'mobile'] },
      ]);
      expect(await mailsOf(t, seeded.project.id)).toEqual([]);
    });

    it('creates an unconfirmed subscriber from a browser, emails a confirmation link and holds the event back', async () => {
      const seeded = await t.seedProject({ plan: 'indie', name: 'Rocket' });
      const res = await subscribe(seeded.publishableKey, { email: 'grace@example.com' }).expect(201);
      expect(res.body.data).toMatchObject({ email: 'grace@example.com', confirmed: false });
      expect(await eventsOf(t, seeded.project.id, 'changelog.subscriber.created')).toEqual([]);
      const [mail] = await mailsOf(t, seeded.project.id, CONFIRMATION);
      expect(mail).toMatchObject({ recipient: 'grace@example.com', subject: 'Confirm your subscription to the Rocket changelog' });
      const unsubscribe = subscriberLinkIn(mail.textBody, 'unsubscribe');
      expect(mail.headers).toEqual({
        'List-Unsubscribe': `<https://launch.test${unsubscribe}>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      });
      expect(mail.htmlBody).toContain(`href="https://launch.test${subscriberLinkIn(mail.textBody, 'confirm')}"`);
      // Tokens are stored hashed: the links' tokens are nowhere in the table.
      const tokens = await t.db.manager.find(ChangelogSubscriberTokenEntity, { where: { subscriberId: res.body.data.id } });
      expect(tokens.map((token) => token.purpose).sort()).toEqual(['confirm', 'labels', 'unsubscribe']);
      expect(tokens.map((token) => token.tokenHash)).not.toContain(tokenOf(unsubscribe));
    });

    it('answers 409 ALREADY_SUBSCRIBED for the same email again, pending or confirmed, and writes nothing', async () => {
      const seeded = await t.seedProject({ plan: 'indie' });
      await subscribe(seeded.publishableKey, { email: 'pending@example.com' }).expect(201);
      await subscribe(seeded.secretKey, { email: 'confirmed@example.com' }).expect(201);
      for (const [key, email] of [
        [seeded.publishableKey, 'PENDING@example.com'],
        [seeded.secretKey, 'pending@example.com'],
        [seeded.publishableKey, 'confirmed@example.com'],
      ]) {
        const res = await subscribe(key, { email }).expect(409);
        expect(res.body).toMatchObject({ data: null, error: { code: 'ALREADY_SUBSCRIBED', param: 'email' } });
      }
      expect(await subscriberRows(t, seeded.project.id)).toHaveLength(2);
      expect(await mailsOf(t, seeded.project.id, CONFIRMATION)).toHaveLength(1);
      expect(await eventsOf(t, seeded.project.id, 'changelog.subscriber.created')).toHaveLength(1);
    });

    it('refuses an unknown label slug with VALIDATION_ERROR and writes nothing', async () => {
      const seeded = await t.seedProject({ plan: 'indie' });
      await seedLabel(t, seeded.project.id, 'api');
      const res = await subscribe(seeded.secretKey, { email: 'a@example.com', labels: ['api', 'nope'] }).expect(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'labels', message: expect.stringContaining('nope') });
      expect(await subscriberRows(t, seeded.project.id)).toEqual([]);
    });

    it("treats another project's label as unknown", async () => {
      const mine = await t.seedProject({ plan: 'indie' });
      const other = await t.seedProject({ plan: 'indie' });
      await seedLabel(t, other.project.id, 'theirs');
      const res = await subscribe(mine.secretKey, { email: 'a@example.com', labels: ['theirs'] }).expect(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'labels' });
    });

    it.each([
      ['no email', {}, 'email'],
      ['a malformed email', { email: 'not-an-email' }, 'email'],
      ['an email over 254 characters', { email: `${'a'.repeat(250)}@x.io` }, 'email'],
      ['labels that are not an array', { email: 'a@example.com', labels: 'api' }, 'labels'],
      ['an empty slug', { email: 'a@example.com', labels: [''] }, 'labels'],
      ['more than 100 labels', { email: 'a@example.com', labels: Array.from({ length: 101 }, (_, n) => `l${n}`) }, 'labels'],
      ['an unknown field', { email: 'a@example.com', extra: true }, 'extra'],
    ])('answers VALIDATION_ERROR for %s', async (_case, body, param) => {
      const seeded = await t.seedProject();
      const res = await subscribe(seeded.secretKey, body).expect(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param });
    });

    it('needs a key', async () => {
      const res = await t.api.post('/v1/changelog/subscribers').send({ email: 'a@example.com' }).expect(401);
      expect(res.body.error.code).toBe('MISSING_AUTH');
    });

    it('replays a subscribe sent again with the same Idempotency-Key', async () => {
      const seeded = await t.seedProject({ plan: 'indie' });
      const send = () =>
        t.api.as(seeded.publishableKey).post('/v1/changelog/subscribers').set('Idempotency-Key', 'sub-1').send({ email: 'i@example.com' });
      const first = await send().expect(201);
      const replay = await send().expect(201);
      expect(replay.body).toEqual(first.body);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(await mailsOf(t, seeded.project.id, CONFIRMATION)).toHaveLength(1);
    });

    it('stops at the plan limit, also when subscribes race for the last place', async () => {
      const seeded = await t.seedProject({ plan: 'free' });
      // Free allows 1000 (plans.ts); 999 are there already.
      await t.db.manager.query(
        `INSERT INTO changelog_subscribers (id, project_id, email, confirmed, confirmed_at, created_at)
         SELECT 'sub_SEED' || lpad(n::text, 22, '0'), $1, 'seed' || n || '@example.com', true, now(), now() FROM generate_series(1, 999) n`,
        [seeded.project.id],
      );
      const results = await Promise.all(
        [1, 2, 3, 4].map((n) =>
          t.api
            .as(seeded.secretKey)
            .post('/v1/changelog/subscribers')
            .send({ email: `race${n}@example.com` }),
        ),
      );
      expect(results.map((res) => res.status).sort()).toEqual([201, 403, 403, 403]);
      const refused = results.find((res) => res.status === 403);
      expect(refused?.body.error).toMatchObject({ code: 'PLAN_LIMIT_REACHED', message: expect.stringContaining('1000') });
      expect(await subscriberRows(t, seeded.project.id)).toHaveLength(1000);
      expect(await eventsOf(t, seeded.project.id, 'changelog.subscriber.created')).toHaveLength(1);
      // A duplicate is still a duplicate on a full project.
      const again = await subscribe(seeded.secretKey, { email: 'seed1@example.com' }).expect(409);
      expect(again.body.error.code).toBe('ALREADY_SUBSCRIBED');
    });
  });

  describe('confirm and unsubscribe links', () => {
    async function pendingSubscriber(labels: string[] = []): Promise<{ seeded: SeededProject; id: string; text: string }> {
      const seeded = await t.seedProject({ plan: 'indie', name: 'Linkly' });
      for (const slug of labels) await seedLabel(t, seeded.project.id, slug);
      const res = await subscribe(seeded.publishableKey, { email: 'link@example.com', labels }).expect(201);
      const [mail] = await mailsOf(t, seeded.project.id, CONFIRMATION);
      return { seeded, id: res.body.data.id, text: mail.textBody };
    }

    it('shows a page with a button on GET, and confirms (sending the event once) only on POST', async () => {
      const { seeded, id, text } = await pendingSubscriber(['api']);
      const link = subscriberLinkIn(text, 'confirm');
      const page = await t.api.get(link).expect(200);
      expect(page.headers['content-type']).toMatch(/text\/html/);
      expect(page.text).toContain('Get the Linkly changelog by email?');
      expect(page.text).toMatch(/<form method="post" action="confirm\?token=[A-Za-z0-9_-]+">/);
      expect((await subscriberRows(t, seeded.project.id))[0].confirmed).toBe(false);

      t.clock.freeze('2026-11-21T08:00:00.000Z');
      const done = await t.api.post(link).expect(200);
      expect(done.text).toContain('You will get the Linkly changelog by email.');
      const [row] = await subscriberRows(t, seeded.project.id);
      expect(row).toMatchObject({ id, confirmed: true, confirmedAt: new Date('2026-11-21T08:00:00.000Z') });
      await t.api.post(link).expect(200);
      const events = await eventsOf(t, seeded.project.id, 'changelog.subscriber.created');
      expect(events.map((event) => event.data)).toEqual([
        { subscriber_id: id, email: 'link@example.com', created_at: row.createdAt.toISOString(), labels: ['api'] },
      ]);
      expect((await t.api.get(link).expect(200)).text).toContain('You will get the Linkly changelog');
      const listed = await t.api.as(seeded.secretKey).get('/v1/changelog/subscribers').expect(200);
      expect(listed.body.data[0]).toMatchObject({ id, confirmed: true });
    });

    it('answers the "not valid" page for unknown tokens and for a token of another link', async () => {
      const { seeded, text } = await pendingSubscriber();
      const unsubscribeToken = tokenOf(subscriberLinkIn(text, 'unsubscribe'));
      for (const path of [
        `/v1/changelog/subscribers/confirm?token=${unsubscribeToken}`,
        '/v1/changelog/subscribers/confirm?token=nope',
        `/v1/changelog/subscribers/unsubscribe?token=${tokenOf(subscriberLinkIn(text, 'confirm'))}`,
      ]) {
        const res = await t.api.post(path).expect(404);
        expect(res.text).toContain('This link is not valid');
      }
      expect((await subscriberRows(t, seeded.project.id))[0].confirmed).toBe(false);
      const missing = await t.api.get('/v1/changelog/subscribers/confirm').expect(400);
      expect(missing.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'token' });
    });

    it('unsubscribes on POST only, deleting the subscriber with its labels and tokens; one-click POST works too', async () => {
      const { seeded, id, text } = await pendingSubscriber(['api']);
      const link = subscriberLinkIn(text, 'unsubscribe');
      const page = await t.api.get(link).expect(200);
      expect(page.text).toMatch(/<form method="post" action="unsubscribe\?token=[A-Za-z0-9_-]+">/);
      expect(await subscriberRows(t, seeded.project.id)).toHaveLength(1);

      const done = await t.api.post(link).type('form').send('List-Unsubscribe=One-Click').expect(200);
      expect(done.text).toContain('You will get no more emails about the Linkly changelog.');
      expect(await subscriberRows(t, seeded.project.id)).toEqual([]);
      expect(await t.db.manager.count(ChangelogSubscriberTokenEntity, { where: { subscriberId: id } })).toBe(0);
      expect(await t.db.manager.count(ChangelogSubscriberLabelEntity, { where: { subscriberId: id } })).toBe(0);
      const again = await t.api.post(link).expect(404);
      expect(again.text).toContain('If you already unsubscribed, nothing more is needed');
      // The address may subscribe again afterwards.
      await subscribe(seeded.publishableKey, { email: 'link@example.com' }).expect(201);
    });
  });
});
