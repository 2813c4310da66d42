import { ContactEntity } from '../../src/contacts/entities/contact.entity';
import { WaitlistCounterEntity } from '../../src/waitlist/entities/waitlist-counter.entity';
import { WaitlistCsvService } from '../../src/waitlist/waitlist-csv.service';
import { SeededProject, TestApp } from '../support/test-app';
import { eventsOf, mailsTo, signupByEmail, signupRows } from './waitlist-test-helpers';

const range = (count: number) => Array.from({ length: count }, (_, index) => index + 1);

/** The launch spike: many signups of one project at the same instant. */
describe('waitlist under concurrency', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.close());

  describe('POST /v1/waitlist/signups', () => {
    it('gives 200 simultaneous signups the positions 1..200, each exactly once', async () => {
      const { project, secretKey } = await t.seedProject();
      const responses = await Promise.all(
        range(200).map((n) =>
          t.api
            .as(secretKey)
            .post('/v1/waitlist/signups')
            .send({ email: `spike${n}@x.io` }),
        ),
      );
      expect(responses.map((res) => res.status)).toEqual(range(200).map(() => 201));
      const positions = responses.map((res) => res.body.data.position as number).sort((a, b) => a - b);
      expect(positions).toEqual(range(200));
      const rows = await signupRows(t, project.id);
      expect(rows.map((row) => row.position)).toEqual(range(200));
      expect(new Set(rows.map((row) => row.referralCode)).size).toBe(200);
      expect(await t.db.manager.findOneBy(WaitlistCounterEntity, { projectId: project.id })).toMatchObject({ lastPosition: 200 });
      expect(await eventsOf(t, project.id, 'waitlist.signup.created')).toHaveLength(200);
    });

    it('lets one of 20 simultaneous signups of one email (any case) in, and answers 409 to the rest', async () => {
      const { project, secretKey } = await t.seedProject();
      await t.api.as(secretKey).post('/v1/waitlist/signups').send({ email: 'first@x.io' }).expect(201);
      const variants = range(20).map((n) => (n % 2 ? 'Twin@Example.com' : n % 3 ? 'TWIN@example.COM' : 'twin@example.com'));
      const responses = await Promise.all(variants.map((email) => t.api.as(secretKey).post('/v1/waitlist/signups').send({ email })));
      const created = responses.filter((res) => res.status === 201);
      const refused = responses.filter((res) => res.status === 409);
      expect({ created: created.length, refused: refused.length }).toEqual({ created: 1, refused: 19 });
      for (const res of refused) expect(res.body.error).toMatchObject({ code: 'DUPLICATE_SIGNUP', param: 'email' });
      expect(created[0].body.data.position).toBe(2);
      expect((await signupRows(t, project.id)).map((row) => row.email)).toEqual(['first@x.io', 'twin@example.com']);
      const events = (await eventsOf(t, project.id, 'waitlist.signup.created')).filter((event) => event.data.email === 'twin@example.com');
      expect(events).toHaveLength(1);
      expect(await mailsTo(t, project.id, 'twin@example.com')).toHaveLength(1);
      // No number was lost to the refused attempts.
      const next = await t.api.as(secretKey).post('/v1/waitlist/signups').send({ email: 'third@x.io' }).expect(201);
      expect(next.body.data.position).toBe(3);
    });

    it('counts every one of 40 simultaneous referrals of one person', async () => {
      const { project, secretKey, publishableKey } = await t.seedProject();
      const referrer = await t.api.as(secretKey).post('/v1/waitlist/signups').send({ email: 'hub@x.io' }).expect(201);
      const code = referrer.body.data.referral_code as string;
      const responses = await Promise.all(
        range(40).map((n) =>
          t.api
            .as(n % 2 ? secretKey : publishableKey)
            .post('/v1/waitlist/signups')
            .send({ email: `ref${n}@x.io`, referrer_code: code }),
        ),
      );
      expect(responses.every((res) => res.status === 201 && res.body.data.referrer_credited === true)).toBe(true);
      expect((await signupByEmail(t, project.id, 'hub@x.io')).referralCount).toBe(40);
      const stats = await t.api.as(secretKey).get('/v1/waitlist/stats').expect(200);
      expect(stats.body.data).toMatchObject({ total_signups: 41, via_referral_count: 40 });
      expect(stats.body.data.top_referrers).toEqual([{ signup_id: referrer.body.data.signup_id, email: 'hub@x.io', referral_count: 40 }]);
    });
  });

  describe('POST /v1/waitlist/signups with a CSV import and invite waves of the same people at once', () => {
    it('settles every request without a deadlock, one row per email, positions still gap-free', async () => {
      const { project, secretKey } = await t.seedProject({ plan: 'indie' });
      const api = t.api.as(secretKey);
      const hub = await api.post('/v1/waitlist/signups').send({ email: 'hub@x.io' }).expect(201);
      for (const n of range(10))
        await api
          .post('/v1/waitlist/signups')
          .send({ email: `early${n}@x.io` })
          .expect(201);
      // In the file and signing up live with the hub's code; the file lists them in the opposite order.
      const shared = range(20).map((n) => `both${n}@x.io`);
      const file = ['email', ...[...shared].reverse(), ...range(10).map((n) => `file${n}@x.io`)].join('\n');
      const joining = shared.map((email) =>
        api
          .post('/v1/waitlist/signups')
          .send({ email, referrer_code: hub.body.data.referral_code })
          .then((res) => res),
      );
      // The import starts once the first live signup is in, so it meets the others mid-flight.
      await Promise.race(joining);
      const [report, ...answers] = await Promise.all([
        t.get(WaitlistCsvService).importCsv(project, file),
        ...joining,
        api.post('/v1/waitlist/invites').send({ count: 5 }),
        api.post('/v1/waitlist/invites').send({ specific_email: 'hub@x.io' }),
      ]);
      const signups = answers.slice(0, shared.length);
      const live = signups.filter((res) => res.status === 201).length;
      expect(signups.every((res) => res.status === 201 || (res.status === 409 && res.body.error.code === 'DUPLICATE_SIGNUP'))).toBe(true);
      expect(answers.slice(shared.length).map((res) => res.status)).toEqual([200, 200]);
      expect(report).toEqual({ imported: 30 - live, skipped_duplicates: live, invalid: [] });
      const rows = await signupRows(t, project.id);
      expect(rows.map((row) => row.position)).toEqual(range(41));
      expect(new Set(rows.map((row) => row.email)).size).toBe(41);
      expect((await signupByEmail(t, project.id, 'hub@x.io')).referralCount).toBe(live);
      expect(await t.db.manager.countBy(ContactEntity, { projectId: project.id })).toBe(41);
    });
  });

  describe('POST /v1/waitlist/invites', () => {
    /** An Indie project with 100 people waiting, in positions 1..100 (imported: quicker than 100 requests). */
    async function seedWaitingLine(): Promise<SeededProject> {
      const seeded = await t.seedProject({ plan: 'indie' });
      const csv = ['email', ...range(100).map((n) => `q${n}@x.io`)].join('\n');
      expect(await t.get(WaitlistCsvService).importCsv(seeded.project, csv)).toMatchObject({ imported: 100 });
      return seeded;
    }

    it('never invites one person twice when two waves of 30 run at once', async () => {
      const seeded = await seedWaitingLine();
      const [left, right] = await Promise.all([
        t.api.as(seeded.secretKey).post('/v1/waitlist/invites').send({ count: 30 }),
        t.api.as(seeded.secretKey).post('/v1/waitlist/invites').send({ count: 30 }),
      ]);
      expect([left.status, right.status]).toEqual([200, 200]);
      expect([left.body.data.invited_count, right.body.data.invited_count]).toEqual([30, 30]);
      const ids = [...left.body.data.invited, ...right.body.data.invited].map((item: { signup_id: string }) => item.signup_id);
      expect(new Set(ids).size).toBe(60);
      const rows = await signupRows(t, seeded.project.id);
      const invited = rows.filter((row) => row.status === 'invited');
      // First in, first out: the 60 earliest people, nobody later.
      expect(invited.map((row) => row.position)).toEqual(range(60));
      expect(new Set(invited.map((row) => row.id))).toEqual(new Set(ids));
      const events = await eventsOf(t, seeded.project.id, 'waitlist.signups.invited');
      expect(events.map((event) => event.data.count)).toEqual([30, 30]);
    });

    it('keeps signups flowing while invite waves run', async () => {
      const seeded = await seedWaitingLine();
      const results = await Promise.all([
        t.api.as(seeded.secretKey).post('/v1/waitlist/invites').send({ count: 20 }),
        ...range(30).map((n) =>
          t.api
            .as(seeded.secretKey)
            .post('/v1/waitlist/signups')
            .send({ email: `late${n}@x.io` }),
        ),
        t.api.as(seeded.secretKey).post('/v1/waitlist/invites').send({ count: 20 }),
      ]);
      expect(results.map((res) => res.status).sort()).toEqual([200, 200, ...range(30).map(() => 201)]);
      const rows = await signupRows(t, seeded.project.id);
      expect(rows.map((row) => row.position)).toEqual(range(130));
      // The waves took the 40 earliest; the people who arrived meanwhile queue behind the 100.
      expect(rows.filter((row) => row.status === 'invited').map((row) => row.position)).toEqual(range(40));
    });
  });
});
