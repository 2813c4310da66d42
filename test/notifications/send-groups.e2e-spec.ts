import { newId } from '../../src/common/ids/ids';
import { NotificationEntity } from '../../src/notifications/entities/notification.entity';
import { NotificationRecipientEntity } from '../../src/notifications/entities/notification-recipient.entity';
import { SeededProject, TestApp } from '../support/test-app';

interface ContactSeed {
  email?: string | null;
  userId?: string | null;
  stage?: string;
  details?: Record<string, string>;
  paying?: boolean;
  consents?: Record<string, { status: string; updated_at: string }>;
}

describe('Group sends', () => {
  let t: TestApp;
  let seeded: SeededProject;

  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    seeded = await t.seedProject({ plan: 'builder' });
  });

  const base = { title: 'Maintenance tonight', body: 'The service pauses from 2:00 to 2:15 UTC.' };
  const send = (body: Record<string, unknown>) => t.api.as(seeded.secretKey).post('/v1/notifications').send(body);
  const preview = (body: Record<string, unknown>) => t.api.as(seeded.secretKey).post('/v1/notifications/audience').send(body);
  const recipientsOf = async (id: string) =>
    (await t.db.manager.find(NotificationRecipientEntity, { where: { notificationId: id } })).map((r) => r.userId).sort();

  /** Contacts written in one statement; returns their ids in the given order. */
  async function seedContacts(seeds: ContactSeed[], projectId = seeded.project.id): Promise<string[]> {
    const ids = seeds.map(() => newId('ct'));
    await t.db.manager.query(
      `INSERT INTO contacts (id, project_id, email, user_id, stage, consents, details, paying, created_at, updated_at)
       SELECT s.id, $1, s.email, s.user_id, s.stage, s.consents, s.details, s.paying, now(), now()
       FROM unnest($2::varchar[], $3::varchar[], $4::varchar[], $5::varchar[], $6::jsonb[], $7::jsonb[], $8::boolean[])
         AS s(id, email, user_id, stage, consents, details, paying)`,
      [
        projectId,
        ids,
        seeds.map((s) => s.email ?? null),
        seeds.map((s) => s.userId ?? null),
        seeds.map((s) => s.stage ?? 'lead'),
        seeds.map((s) => JSON.stringify(s.consents ?? {})),
        seeds.map((s) => JSON.stringify(s.details ?? {})),
        seeds.map((s) => s.paying ?? false),
      ],
    );
    return ids;
  }

  it('sends to user_ids as given, deduplicated, in one group row', async () => {
    const res = await send({ ...base, user_ids: ['a', 'b', 'a', 'c'] }).expect(201);
    expect(res.body.data).toMatchObject({ audience: 'group', user_id: null, recipient_count: 3, broadcast: false });
    expect(res.body.meta.audience).toEqual({ asked: 3, reached: 3, unreachable: [] });
    expect(await recipientsOf(res.body.data.id)).toEqual(['a', 'b', 'c']);
  });

  it('resolves emails and contact ids through contacts, and reports who cannot be reached', async () => {
    const [ada, bob, lead] = await seedContacts([
      { email: 'ada@example.com', userId: 'u_ada' },
      { email: 'bob@example.com', userId: 'u_bob' },
      { email: 'lead@example.com' },
    ]);
    const [other] = await seedContacts([{ email: 'x@example.com', userId: 'u_x' }], (await t.seedProject()).project.id);
    const res = await send({
      ...base,
      emails: ['ADA@example.com ', 'lead@example.com', 'nobody@example.com'],
      contact_ids: [bob, ada, lead, other],
      user_ids: ['u_ada'],
    }).expect(201);
    expect(await recipientsOf(res.body.data.id)).toEqual(['u_ada', 'u_bob']);
    expect(res.body.data.recipient_count).toBe(2);
    expect(res.body.meta.audience.asked).toBe(2 + 4);
    expect(res.body.meta.audience.reached).toBe(2);
    expect([...res.body.meta.audience.unreachable].sort()).toEqual(['lead@example.com', 'nobody@example.com', lead, other].sort());
  });

  it('resolves a contacts filter (stage, consent, detail, paying) like GET /v1/contacts', async () => {
    const granted = { status: 'granted', updated_at: '2026-01-01T00:00:00Z' };
    await seedContacts([
      { userId: 'u1', stage: 'user', details: { plan: 'pro' }, paying: true, consents: { product_updates: granted } },
      { userId: 'u2', stage: 'user', details: { plan: 'pro' }, paying: false, consents: { product_updates: granted } },
      { userId: 'u3', stage: 'user', details: { plan: 'free' }, paying: true },
      { userId: 'u4', stage: 'waitlist', details: { plan: 'pro' }, paying: true },
      { email: 'pro-lead@example.com', stage: 'user', details: { plan: 'pro' }, paying: true },
    ]);
    const pro = await send({ ...base, contacts: { stage: 'user', detail: 'plan=pro' } }).expect(201);
    expect(await recipientsOf(pro.body.data.id)).toEqual(['u1', 'u2']);
    expect(pro.body.meta.audience).toEqual({ asked: 3, reached: 2, unreachable: ['pro-lead@example.com'] });
    const paying = await send({ ...base, contacts: { paying: true, detail: ['plan=pro'], stage: 'user' } }).expect(201);
    expect(await recipientsOf(paying.body.data.id)).toEqual(['u1']);
    const consenting = await send({ ...base, contacts: { consent: 'product_updates' } }).expect(201);
    expect(await recipientsOf(consenting.body.data.id)).toEqual(['u1', 'u2']);
    const everyone = await send({ ...base, contacts: {} }).expect(201);
    expect(await recipientsOf(everyone.body.data.id)).toEqual(['u1', 'u2', 'u3', 'u4']);
  });

  it('refuses a group nobody in which has a user id: 422 NO_REACHABLE_RECIPIENTS, nothing stored, no quota used', async () => {
    await seedContacts([{ email: 'lead@example.com' }]);
    const res = await send({ ...base, emails: ['lead@example.com', 'ghost@example.com'] }).expect(422);
    expect(res.body.error.code).toBe('NO_REACHABLE_RECIPIENTS');
    expect((await send({ ...base, contacts: { stage: 'invited' } }).expect(422)).body.error.code).toBe('NO_REACHABLE_RECIPIENTS');
    expect(await t.db.manager.count(NotificationEntity, { where: { projectId: seeded.project.id } })).toBe(0);
    expect((await t.api.as(seeded.secretKey).get('/v1/notifications/usage').expect(200)).body.data.sent).toBe(0);
  });

  it('checks the group fields: at most 1000 each, emails, contact ids, filter values', async () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `u${i}`);
    await send({ ...base, user_ids: ids(1000) }).expect(201);
    const cases: [Record<string, unknown>, string][] = [
      [{ user_ids: ids(1001) }, 'user_ids'],
      [{ user_ids: [] }, 'user_ids'],
      [{ user_ids: ['x'.repeat(257)] }, 'user_ids'],
      [{ emails: ['not-an-email'] }, 'emails'],
      [{ emails: Array.from({ length: 1001 }, (_, i) => `p${i}@example.com`) }, 'emails'],
      [{ contact_ids: ['ct_nope'] }, 'contact_ids'],
      [{ contacts: { stage: 'vip' } }, 'contacts.stage'],
      [{ contacts: { detail: 'no-equals' } }, 'contacts.detail'],
      [{ contacts: { paying: 'maybe' } }, 'contacts.paying'],
      [{ contacts: { consent: 'Bad Purpose' } }, 'contacts.consent'],
      [{ contacts: { colour: 'red' } }, 'contacts.colour'],
    ];
    for (const [fields, param] of cases) {
      const res = await send({ ...base, ...fields }).expect(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param });
    }
  });

  // How fast a group of 10,000 goes is measured by `npm run bench` (send timings), not here.
  it('sends to 10,000 people and refuses 10,001', async () => {
    await seedContacts(
      Array.from({ length: 10_001 }, (_, i) => ({ userId: `user_${i}`, stage: 'user', details: { cohort: i === 0 ? 'b' : 'a' } })),
    );
    const res = await send({ ...base, contacts: { detail: 'cohort=a' } }).expect(201);
    expect(res.body.data.recipient_count).toBe(10_000);
    expect(await t.db.manager.count(NotificationRecipientEntity, { where: { notificationId: res.body.data.id } })).toBe(10_000);
    const tooMany = await send({ ...base, contacts: { stage: 'user' } }).expect(422);
    expect(tooMany.body.error.code).toBe('TOO_MANY_RECIPIENTS');
    expect(tooMany.body.error.message).toContain('10001');
    expect(await t.db.manager.count(NotificationEntity, { where: { projectId: seeded.project.id } })).toBe(1);
  });

  describe('POST /v1/notifications/audience', () => {
    it('previews people, reachable, unreachable and a sample, and stores nothing', async () => {
      await seedContacts([{ email: 'ada@example.com', userId: 'u_ada' }, { email: 'lead@example.com' }]);
      const res = await preview({
        emails: ['ada@example.com', 'lead@example.com', 'ghost@example.com'],
        user_ids: ['u_ada', 'u_new'],
      }).expect(200);
      expect(res.body.data).toEqual({
        people: 4,
        reachable: 2,
        unreachable: 2,
        unreachable_sample: ['lead@example.com', 'ghost@example.com'],
      });
      expect(await t.db.manager.count(NotificationEntity, { where: { projectId: seeded.project.id } })).toBe(0);
      expect((await t.api.as(seeded.secretKey).get('/v1/notifications/usage').expect(200)).body.data.sent).toBe(0);
    });

    it('keeps the sample to 20 while counting everyone', async () => {
      await seedContacts(Array.from({ length: 30 }, (_, i) => ({ email: `lead${i}@example.com`, stage: 'waitlist' })));
      const res = await preview({ contacts: { stage: 'waitlist' } }).expect(200);
      expect(res.body.data).toMatchObject({ people: 30, reachable: 0, unreachable: 30 });
      expect(res.body.data.unreachable_sample).toHaveLength(20);
    });

    it('needs a group field, takes no message fields, and is for secret keys only', async () => {
      expect((await preview({}).expect(400)).body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'user_ids' });
      expect((await preview({ user_ids: ['a'], title: 'x' }).expect(400)).body.error).toMatchObject({ param: 'title' });
      const res = await t.api
        .as(seeded.publishableKey)
        .post('/v1/notifications/audience')
        .send({ user_ids: ['a'] })
        .expect(403);
      expect(res.body.error.code).toBe('KEY_INSUFFICIENT_PERMISSIONS');
    });
  });
});
