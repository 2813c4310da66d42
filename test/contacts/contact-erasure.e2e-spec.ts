import { seedEntry } from '../support/changelog-seed';
import { ContactErasureEntity } from '../../src/contacts/erasure/entities/contact-erasure.entity';
import { signUp } from '../dashboard/dashboard-support';
import { TestIdentityProvider } from '../support/identity-provider';
import { seedNotification } from '../support/notification-seed';
import { SeededProject, TestApp } from '../support/test-app';

describe('Contact detail and erasure', () => {
  let idp: TestIdentityProvider;
  let t: TestApp;

  beforeAll(async () => {
    idp = await TestIdentityProvider.start();
    t = await TestApp.start({ env: idp.env() });
  });
  afterAll(async () => {
    await t.close();
    await idp.close();
  });

  const count = async (sql: string, params: unknown[]) => ((await t.db.manager.query(sql, params)) as { n: number }[])[0].n;

  /** One person met everywhere: waitlist, feedback, changelog emails, identify, the bell, mail. */
  async function personEverywhere(p: SeededProject, email: string, userId: string): Promise<string> {
    const api = t.api.as(p.secretKey);
    await api.post('/v1/waitlist/signups').send({ email }).expect(201);
    await api.post('/v1/feedback').send({ feedback_text: 'The export button is broken on Safari', email, user_id: userId }).expect(201);
    await api.post('/v1/changelog/subscribers').send({ email }).expect(201);
    const identified = await api.post('/v1/analytics/identify').send({ user_id: userId, email }).expect(200);
    const pid = p.project.id;
    const own = await seedNotification(t, pid, { userId });
    const group = await seedNotification(t, pid, { userIds: [userId, 'someone_else'] });
    const broadcast = await seedNotification(t, pid);
    for (const notificationId of [own.id, group.id, broadcast.id]) {
      await t.db.manager.query(
        'INSERT INTO notification_receipts (notification_id, user_id, project_id, read_at, updated_at) VALUES ($1, $2, $3, now(), now())',
        [notificationId, userId, pid],
      );
    }
    await t.db.manager.query('INSERT INTO bell_users (project_id, user_id, first_seen_at, last_seen_at) VALUES ($1, $2, now(), now())', [
      pid,
      userId,
    ]);
    // The changelog widget: an entry they were shown and their reaction beside someone else's.
    const entry = await seedEntry(t, pid);
    await t.db.manager.query('INSERT INTO changelog_readers (entry_id, user_id, project_id, first_seen_at) VALUES ($1, $2, $3, now())', [
      entry.id,
      userId,
      pid,
    ]);
    await t.db.manager.query(
      `INSERT INTO changelog_reactions (entry_id, reactor, project_id, reaction, reacted_at) VALUES ($1, $2, $3, 'like', now()), ($1, 'c:browser-1', $3, 'like', now())`,
      [entry.id, `u:${userId}`, pid],
    );
    await t.db.manager.query("INSERT INTO changelog_reaction_counts (entry_id, reaction, count) VALUES ($1, 'like', 2)", [entry.id]);
    await t.drainJobs();
    return identified.body.data.id;
  }

  describe('GET /v1/contacts/{id}', () => {
    it("answers the contact, and CONTACT_NOT_FOUND for an unknown id or another project's contact", async () => {
      const p = await t.seedProject();
      const other = await t.seedProject();
      const made = await t.api.as(p.secretKey).post('/v1/analytics/identify').send({ user_id: 'u1', email: 'one@example.com' }).expect(200);
      const res = await t.api.as(p.secretKey).get(`/v1/contacts/${made.body.data.id}`).expect(200);
      expect(res.body.data).toEqual(made.body.data);
      for (const [key, id] of [
        [p.secretKey, 'ct_01JD3Z4Q9X8V7T6S5R4Q3P2N1M'],
        [other.secretKey, made.body.data.id],
      ]) {
        const missing = await t.api.as(key).get(`/v1/contacts/${id}`).expect(404);
        expect(missing.body.error).toMatchObject({ code: 'CONTACT_NOT_FOUND', param: 'id' });
      }
      expect((await t.api.as(p.publishableKey).get(`/v1/contacts/${made.body.data.id}`).expect(403)).body.error.code).toBe(
        'KEY_INSUFFICIENT_PERMISSIONS',
      );
    });
  });

  describe('DELETE /v1/contacts/{id}', () => {
    it('erases the person everywhere in the project, answers the counts and writes an audit row without personal data', async () => {
      const p = await t.seedProject({ plan: 'indie' });
      const bystander = await t.seedProject({ plan: 'indie' });
      const contactId = await personEverywhere(p, 'gone@example.com', 'user_gone');
      await personEverywhere(bystander, 'gone@example.com', 'user_gone');
      await t.api.as(p.secretKey).post('/v1/waitlist/signups').send({ email: 'stays@example.com' }).expect(201);
      const pid = p.project.id;
      const mailsBefore = await count('SELECT count(*)::int AS n FROM mail_messages WHERE project_id = $1 AND recipient = $2', [
        pid,
        'gone@example.com',
      ]);
      expect(mailsBefore).toBeGreaterThan(0);

      const res = await t.api.as(p.secretKey).delete(`/v1/contacts/${contactId}`).expect(200);
      expect(res.body.data).toEqual({
        contact_id: contactId,
        erased: true,
        removed: {
          contact: 1,
          waitlist_signups: 1,
          feedback: 1,
          changelog_subscribers: 1,
          notification_receipts: 3,
          bell_users: 1,
          notification_recipients: 2, // of the own notification and of the group
          notifications: 1,
          changelog_readers: 1,
          changelog_reactions: 1,
          mail_messages: mailsBefore,
          events: expect.any(Number),
        },
        audit_id: expect.stringMatching(/^cer_/),
        erased_at: expect.any(String),
      });
      expect(res.body.data.removed.events).toBeGreaterThanOrEqual(1);
      // The other person's reaction still counts; theirs is gone from the total.
      expect(
        await count(
          'SELECT sum(count)::int AS n FROM changelog_reaction_counts c JOIN changelog_entries e ON e.id = c.entry_id WHERE e.project_id = $1',
          [pid],
        ),
      ).toBe(1);
      expect(await count("SELECT count(*)::int AS n FROM changelog_reactions WHERE project_id = $1 AND reactor LIKE 'u:%'", [pid])).toBe(0);

      const left = async (projectId: string) => ({
        contacts: await count('SELECT count(*)::int AS n FROM contacts WHERE project_id = $1 AND (email = $2 OR user_id = $3)', [
          projectId,
          'gone@example.com',
          'user_gone',
        ]),
        signups: await count('SELECT count(*)::int AS n FROM waitlist_signups WHERE project_id = $1 AND email = $2', [
          projectId,
          'gone@example.com',
        ]),
        subscribers: await count('SELECT count(*)::int AS n FROM changelog_subscribers WHERE project_id = $1 AND email = $2', [
          projectId,
          'gone@example.com',
        ]),
        feedbackEmails: await count('SELECT count(*)::int AS n FROM feedback WHERE project_id = $1 AND (email = $2 OR user_id = $3)', [
          projectId,
          'gone@example.com',
          'user_gone',
        ]),
        receipts: await count('SELECT count(*)::int AS n FROM notification_receipts WHERE project_id = $1 AND user_id = $2', [
          projectId,
          'user_gone',
        ]),
        recipients: await count('SELECT count(*)::int AS n FROM notification_recipients WHERE project_id = $1 AND user_id = $2', [
          projectId,
          'user_gone',
        ]),
        bellUsers: await count('SELECT count(*)::int AS n FROM bell_users WHERE project_id = $1 AND user_id = $2', [
          projectId,
          'user_gone',
        ]),
        mails: await count('SELECT count(*)::int AS n FROM mail_messages WHERE project_id = $1 AND recipient = $2', [
          projectId,
          'gone@example.com',
        ]),
        events: await count(`SELECT count(*)::int AS n FROM events WHERE project_id = $1 AND data::text LIKE '%gone@example.com%'`, [
          projectId,
        ]),
      });
      expect(await left(pid)).toEqual({
        contacts: 0,
        signups: 0,
        subscribers: 0,
        feedbackEmails: 0,
        receipts: 0,
        recipients: 0,
        bellUsers: 0,
        mails: 0,
        events: 0,
      });
      // The other project keeps its own copy of the same person.
      expect(Object.values(await left(bystander.project.id)).every((n) => n > 0)).toBe(true);
      // The feedback text stays; the broadcast and the group stay for everyone else.
      const [feedback] = await t.db.manager.query('SELECT feedback_text, email, user_id FROM feedback WHERE project_id = $1', [pid]);
      expect(feedback).toEqual({ feedback_text: 'The export button is broken on Safari', email: null, user_id: null });
      expect(await count('SELECT count(*)::int AS n FROM notifications WHERE project_id = $1', [pid])).toBe(2);
      expect(await count('SELECT count(*)::int AS n FROM waitlist_signups WHERE project_id = $1', [pid])).toBe(1);

      const audit = await t.db.manager.findOneByOrFail(ContactErasureEntity, { id: res.body.data.audit_id });
      expect(audit).toMatchObject({ projectId: pid, contactId, actorKind: 'api_key', removed: res.body.data.removed });
      expect(JSON.stringify(audit)).not.toMatch(/gone@example\.com|user_gone/);
      const [key] = await t.db.manager.query(`SELECT id FROM api_keys WHERE project_id = $1 AND type = 'secret'`, [pid]);
      expect(audit.actorId).toBe(key.id);

      const again = await t.api.as(p.secretKey).delete(`/v1/contacts/${contactId}`).expect(404);
      expect(again.body.error).toMatchObject({ code: 'CONTACT_NOT_FOUND', param: 'id' });
    });

    it("answers CONTACT_NOT_FOUND for another project's contact and erases nothing", async () => {
      const p = await t.seedProject();
      const other = await t.seedProject();
      const made = await t.api.as(p.secretKey).post('/v1/analytics/identify').send({ user_id: 'u2', email: 'two@example.com' }).expect(200);
      const res = await t.api.as(other.secretKey).delete(`/v1/contacts/${made.body.data.id}`).expect(404);
      expect(res.body.error.code).toBe('CONTACT_NOT_FOUND');
      await t.api.as(p.secretKey).get(`/v1/contacts/${made.body.data.id}`).expect(200);
      expect(await t.db.manager.count(ContactErasureEntity)).toBeGreaterThanOrEqual(0);
      expect(await t.db.manager.countBy(ContactErasureEntity, { contactId: made.body.data.id })).toBe(0);
    });

    it('erases a person known by email only', async () => {
      const p = await t.seedProject();
      await t.api.as(p.secretKey).post('/v1/waitlist/signups').send({ email: 'only@example.com' }).expect(201);
      const [contact] = await t.db.manager.query('SELECT id FROM contacts WHERE project_id = $1', [p.project.id]);
      const res = await t.api.as(p.secretKey).delete(`/v1/contacts/${contact.id}`).expect(200);
      expect(res.body.data.removed).toMatchObject({ contact: 1, waitlist_signups: 1, notification_receipts: 0, bell_users: 0 });
    });
  });

  describe('GET and DELETE /v1/dashboard/contacts/{id}', () => {
    it("works for the account's project, records the account, and answers PROJECT_NOT_FOUND for another account's", async () => {
      const user = await signUp(t, idp, 'erasure_owner');
      const made = await t.api
        .as(user.secretKey)
        .post('/v1/analytics/identify')
        .send({ user_id: 'u3', email: 'three@example.com' })
        .expect(200);
      const id = made.body.data.id;
      const got = await t.api.as(user.token).get(`/v1/dashboard/contacts/${id}`).set('X-Service-Project', user.projectId).expect(200);
      expect(got.body.data).toEqual(made.body.data);
      const intruder = await signUp(t, idp, 'erasure_intruder');
      for (const res of [
        await t.api.as(intruder.token).get(`/v1/dashboard/contacts/${id}`).set('X-Service-Project', user.projectId),
        await t.api.as(intruder.token).delete(`/v1/dashboard/contacts/${id}`).set('X-Service-Project', user.projectId),
      ]) {
        expect({ status: res.status, code: res.body.error.code }).toEqual({ status: 404, code: 'PROJECT_NOT_FOUND' });
      }
      const missing = await t.api
        .as(intruder.token)
        .get(`/v1/dashboard/contacts/${id}`)
        .set('X-Service-Project', intruder.projectId)
        .expect(404);
      expect(missing.body.error.code).toBe('CONTACT_NOT_FOUND');
      const erased = await t.api.as(user.token).delete(`/v1/dashboard/contacts/${id}`).set('X-Service-Project', user.projectId).expect(200);
      expect(erased.body.data.removed.contact).toBe(1);
      const audit = await t.db.manager.findOneByOrFail(ContactErasureEntity, { id: erased.body.data.audit_id });
      expect(audit).toMatchObject({ actorKind: 'account', actorId: user.accountId });
      await t.api.as(user.token).get(`/v1/dashboard/contacts/${id}`).set('X-Service-Project', user.projectId).expect(404);
      expect(
        (await t.api.as(user.secretKey).get(`/v1/dashboard/contacts/${id}`).set('X-Service-Project', user.projectId).expect(401)).body.error
          .code,
      ).toBe('WRONG_AUTH_TYPE');
    });
  });
});
