import { seedEntry } from '../support/changelog-seed';
import { ContactErasureEntity } from '../../src/contacts/erasure/entities/contact-erasure.entity';
import { MailMessageEntity } from '../../src/infra/mail/entities/mail-message.entity';
import { WebhookDeliveryAttemptEntity } from '../../src/webhooks/entities/webhook-delivery-attempt.entity';
import { provisionOwner } from '../support/dashboard-owner';
import { TestIdentityProvider } from '../support/identity-provider';
import { seedNotification } from '../support/notification-seed';
import { TestSmtpServer, startSmtpServer } from '../support/smtp-server';
import { SeededProject, TestApp } from '../support/test-app';
import { Receiver, deliveriesOf, eventually, insertEndpoint } from '../webhooks/delivery-support';

describe('Contact detail and erasure', () => {
  let idp: TestIdentityProvider;
  let smtp: TestSmtpServer;
  let receiver: Receiver;
  let t: TestApp;
  // Addresses the SMTP server refuses for good (550): their mail fails at once and keeps its body.
  const refusedAddresses = new Set<string>();

  beforeAll(async () => {
    idp = await TestIdentityProvider.start();
    smtp = await startSmtpServer({ refuse: (address) => (refusedAddresses.has(address) ? 550 : null) });
    receiver = await Receiver.start();
    t = await TestApp.start({
      env: {
        ...idp.env(),
        SMTP_URL: smtp.url,
        WEBHOOK_ALLOW_INSECURE_URLS: 'true',
        WEBHOOK_RETRY_DELAYS: '1h',
        WEBHOOK_TIMEOUT_MS: '2000',
      },
    });
  });
  afterEach(() => t.clock.reset());
  afterAll(async () => {
    await t.close();
    await receiver.close();
    await smtp.close();
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
          idempotent_answers: 0,
          webhook_responses: 0,
          revenue_customers: 0,
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

    it('leaves nothing replayable: stored answers, event payloads, what a redelivery sends, failed mail', async () => {
      const p = await t.seedProject({ plan: 'indie' });
      const pid = p.project.id;
      const api = t.api.as(p.secretKey);
      const since = t.clock.now().toISOString();
      const { endpoint } = await insertEndpoint(t, pid, { url: receiver.url });
      // A receiver that fails and echoes what it got: its answer excerpt quotes the payload.
      receiver.respond((req, res) => void res.writeHead(500, { 'content-type': 'application/json' }).end(req.rawBody));
      const email = 'replay@example.com';
      const userId = 'user_replay';
      refusedAddresses.add(email);

      const signup = await api
        .post('/v1/waitlist/signups')
        .set('Idempotency-Key', 'signup-1')
        .send({ email: 'Replay@Example.com' })
        .expect(201);
      await api
        .post('/v1/feedback')
        .set('Idempotency-Key', 'feedback-1')
        .send({ feedback_text: 'Exports time out', email, user_id: userId })
        .expect(201);
      const identified = await api
        .post('/v1/analytics/identify')
        .set('Idempotency-Key', 'identify-1')
        .send({ user_id: userId, email })
        .expect(200);
      // Someone else, whose email and user id contain the person's: nothing of theirs goes.
      await api.post('/v1/waitlist/signups').set('Idempotency-Key', 'signup-2').send({ email: 'xreplay@example.com' }).expect(201);
      await api
        .post('/v1/feedback')
        .set('Idempotency-Key', 'feedback-2')
        .send({ feedback_text: 'Exports time out', email: 'xreplay@example.com', user_id: 'user_replay_2' })
        .expect(201);
      await t.drainJobs();
      const settled = () =>
        eventually(async () => {
          const rows = await deliveriesOf(t, endpoint.id);
          expect(rows).toHaveLength(4);
          for (const row of rows)
            expect({ attempts: row.attempts > 0, lockedUntil: row.lockedUntil }).toEqual({ attempts: true, lockedUntil: null });
          return rows;
        });
      const before = await settled();
      const [failedMail] = await t.db.manager.find(MailMessageEntity, { where: { projectId: pid, recipient: email } });
      expect(failedMail).toMatchObject({ status: 'failed', kind: 'waitlist.confirmation' });
      expect(failedMail.textBody).toContain('/v1/waitlist/confirm?token=');
      // Idempotency-Key answers are kept per API key: this project's secret key.
      const [{ id: keyId }] = await t.db.manager.query(`SELECT id FROM api_keys WHERE project_id = $1 AND type = 'secret'`, [pid]);
      const storedAnswers = (): Promise<{ key: string; response_body: string }[]> =>
        t.db.manager.query('SELECT key, response_body FROM idempotency_records WHERE scope = $1 ORDER BY key', [keyId]);
      const answersBefore = await storedAnswers();
      expect(answersBefore.map((row) => row.key)).toEqual(['feedback-1', 'feedback-2', 'identify-1', 'signup-1', 'signup-2']);
      const naming = /"replay@example\.com"|"user_replay"/;
      expect(before.filter((row) => naming.test(row.responseExcerpt ?? '')).length).toBe(2);

      const res = await api.delete(`/v1/contacts/${identified.body.data.id}`).expect(200);

      // Stored answers: those naming the person (the signup's names it by its signup id) are gone.
      const answersAfter = await storedAnswers();
      expect(answersAfter.map((row) => row.key)).toEqual(['feedback-2', 'signup-2']);
      expect(JSON.stringify(answersAfter)).not.toMatch(/"replay@example\.com"|"user_replay"/);
      expect(JSON.stringify(answersAfter)).not.toContain(signup.body.data.signup_id);

      // Event payloads: the person's values are null, the fields stay; the other person's stay whole.
      const events: { id: string; type: string; data: Record<string, unknown> }[] = await t.db.manager.query(
        'SELECT id, type, data FROM events WHERE project_id = $1 ORDER BY created_at, id',
        [pid],
      );
      expect(events.map(({ type, data }) => ({ type, email: data.email, user_id: data.user_id }))).toEqual([
        { type: 'waitlist.signup.created', email: null, user_id: undefined },
        { type: 'feedback.created', email: undefined, user_id: null },
        { type: 'waitlist.signup.created', email: 'xreplay@example.com', user_id: undefined },
        { type: 'feedback.created', email: undefined, user_id: 'user_replay_2' },
      ]);
      expect(events[0].data).toHaveProperty('signup_id', signup.body.data.signup_id);

      // The delivery log: excerpts that quoted the person are cleared, the payloads it shows are blank.
      const after = await deliveriesOf(t, endpoint.id);
      const cleared = after.filter((row) => row.responseExcerpt === null).length;
      expect(after.map((row) => row.responseExcerpt ?? '').join('\n')).not.toMatch(/"replay@example\.com"|"user_replay"/);
      expect(after.filter((row) => (row.responseExcerpt ?? '').includes('xreplay@example.com'))).toHaveLength(1);
      expect(after.filter((row) => (row.responseExcerpt ?? '').includes('"user_replay_2"'))).toHaveLength(1);
      const log = await api.get(`/v1/webhooks/${endpoint.id}/deliveries`).expect(200);
      expect(JSON.stringify(log.body.data)).not.toMatch(/"replay@example\.com"|"user_replay"/);
      // So are the attempts' excerpts, in the same deliveries (the count is of deliveries, not attempts).
      const attempts = await t.db.manager.find(WebhookDeliveryAttemptEntity, { where: { projectId: pid } });
      expect(attempts).toHaveLength(4);
      expect(attempts.map((attempt) => attempt.responseExcerpt ?? '').join('\n')).not.toMatch(naming);
      expect(attempts.filter((attempt) => (attempt.responseExcerpt ?? '').includes('xreplay@example.com'))).toHaveLength(1);
      const clearedAttempts = attempts.filter((attempt) => attempt.responseExcerpt === null).map((attempt) => attempt.deliveryId);
      expect(clearedAttempts.sort()).toEqual(
        after
          .filter((row) => row.responseExcerpt === null)
          .map((row) => row.id)
          .sort(),
      );

      // Failed mail to them is gone with its body.
      expect(await t.db.manager.countBy(MailMessageEntity, { id: failedMail.id })).toBe(0);

      // The answer counts exactly what went.
      expect(res.body.data.removed).toMatchObject({
        contact: 1,
        waitlist_signups: 1,
        feedback: 1,
        mail_messages: 1,
        idempotent_answers: answersBefore.length - answersAfter.length,
        events: 2,
        webhook_responses: cleared,
        revenue_customers: 0,
      });
      expect(cleared).toBe(2);

      // What the scheduled retry and a recover send carries nobody: null where the person was.
      receiver.reset();
      receiver.respond((req, res) => void res.writeHead(500).end(req.rawBody));
      t.clock.advance(2 * 3_600_000);
      await t.drainJobs();
      await eventually(async () => expect((await deliveriesOf(t, endpoint.id)).map((row) => row.status)).toEqual(Array(4).fill('failed')));
      receiver.answer(200, 'ok');
      const recovered = await api.post(`/v1/webhooks/${endpoint.id}/recover`).send({ since }).expect(200);
      expect(recovered.body.data).toEqual({ requeued: 4 });
      await t.drainJobs();
      await receiver.waitFor(8);
      const sent = receiver.requests.map((req) => req.rawBody);
      expect(sent).toHaveLength(8);
      expect(sent.join('\n')).not.toMatch(/"replay@example\.com"|"user_replay"/);
      const sentData = (eventId: string) =>
        receiver.requests.filter((req) => req.headers['service-event-id'] === eventId).map((req) => req.json.data);
      expect(sentData(events[0].id)).toEqual([expect.objectContaining({ email: null }), expect.objectContaining({ email: null })]);
      expect(sentData(events[1].id)).toEqual([expect.objectContaining({ user_id: null }), expect.objectContaining({ user_id: null })]);

      // A retry with the erased signup's key runs afresh: it is not the stored answer replayed.
      const again = await api
        .post('/v1/waitlist/signups')
        .set('Idempotency-Key', 'signup-1')
        .send({ email: 'Replay@Example.com' })
        .expect(201);
      expect(again.headers['idempotent-replayed']).toBeUndefined();
      expect(again.body.data.signup_id).not.toBe(signup.body.data.signup_id);
      expect(again.headers['x-request-id']).not.toBe(signup.headers['x-request-id']);
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
      const user = await provisionOwner(t.api, idp, 'erasure_owner', 'erasure_owner@example.com', 'First');
      const made = await t.api
        .as(user.secretKey)
        .post('/v1/analytics/identify')
        .send({ user_id: 'u3', email: 'three@example.com' })
        .expect(200);
      const id = made.body.data.id;
      const got = await t.api.as(user.token).get(`/v1/dashboard/contacts/${id}`).set('X-Service-Project', user.projectId).expect(200);
      expect(got.body.data).toEqual(made.body.data);
      const intruder = await provisionOwner(t.api, idp, 'erasure_intruder', 'erasure_intruder@example.com', 'First');
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
