import { NotificationEntity } from '../../src/notifications/entities/notification.entity';
import { NotificationRecipientEntity } from '../../src/notifications/entities/notification-recipient.entity';
import { SeededProject, TestApp } from '../support/test-app';

const NTF_ID = /^ntf_[0-9A-HJKMNP-TV-Z]{26}$/;
const month = () => new Date().toISOString().slice(0, 7);

describe('POST /v1/notifications', () => {
  let t: TestApp;
  let seeded: SeededProject;

  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    seeded = await t.seedProject({ plan: 'indie' });
  });

  const send = (body: Record<string, unknown>, key = seeded.secretKey) => t.api.as(key).post('/v1/notifications').send(body);
  const base = { title: 'Your export is ready', body: 'The PDF of March is ready.' };
  const expectInvalid = async (body: Record<string, unknown>, param: string) => {
    const res = await send(body).expect(400);
    expect(res.body).toMatchObject({ data: null, error: { code: 'VALIDATION_ERROR', param } });
    expect(res.body.error.remediation).toEqual(expect.any(String));
    return res;
  };

  it('sends to one user with every field and answers the notification and the month so far', async () => {
    const res = await send({
      ...base,
      user_id: 'user_42',
      action_url: '/reports/42',
      icon: 'check',
      category: 'billing',
      actions: [
        { label: 'Open', url: 'https://app.example.com/reports/42' },
        { label: 'Later', url: '/later' },
      ],
      data: { report_id: 42 },
      pinned: true,
      reactions: ['celebrate', 'like'],
    }).expect(201);
    expect(res.body.data).toEqual({
      id: expect.stringMatching(NTF_ID),
      title: base.title,
      body: base.body,
      action_url: '/reports/42',
      icon: 'check',
      category: 'billing',
      actions: [
        { label: 'Open', url: 'https://app.example.com/reports/42' },
        { label: 'Later', url: '/later' },
      ],
      data: { report_id: 42 },
      created_at: expect.any(String),
      read: false,
      read_at: null,
      clicked: false,
      archived: false,
      broadcast: false,
      audience: 'user',
      user_id: 'user_42',
      recipient_count: 1,
      pinned: true,
      reactions: ['celebrate', 'like'],
    });
    expect(res.body.meta).toEqual({ usage: { month: month(), sent: 1, limit: 20000, remaining: 19999 } });
    const recipients = await t.db.manager.find(NotificationRecipientEntity, { where: { notificationId: res.body.data.id } });
    expect(recipients.map((r) => r.userId)).toEqual(['user_42']);
  });

  it('defaults icon to info, no category, no actions, no data, no reactions', async () => {
    const res = await send({ ...base, user_id: 'u1' }).expect(201);
    expect(res.body.data).toMatchObject({
      icon: 'info',
      category: null,
      actions: [],
      data: null,
      action_url: null,
      reactions: null,
      pinned: false,
    });
  });

  it('broadcasts with audience all as one row, whatever the number of bell users', async () => {
    const insertBellUsers = (count: number) =>
      t.db.manager.query(
        `INSERT INTO bell_users (project_id, user_id, first_seen_at, last_seen_at)
         SELECT $1, 'bu_' || g, now(), now() FROM generate_series(1, $2) g`,
        [seeded.project.id, count],
      );
    await insertBellUsers(1000);
    const first = await send({ ...base, audience: 'all' }).expect(201);
    expect(first.body.data).toMatchObject({ broadcast: true, audience: 'all', user_id: null, recipient_count: 0 });
    await t.db.manager.query('DELETE FROM bell_users WHERE project_id = $1', [seeded.project.id]);
    await insertBellUsers(100_000);
    const second = await send({ ...base, audience: 'all' }).expect(201);
    for (const res of [first, second]) {
      expect(await t.db.manager.count(NotificationEntity, { where: { id: res.body.data.id } })).toBe(1);
      expect(await t.db.manager.count(NotificationRecipientEntity, { where: { notificationId: res.body.data.id } })).toBe(0);
    }
    const receipts = await t.db.manager.query('SELECT COUNT(*)::int AS n FROM notification_receipts WHERE project_id = $1', [
      seeded.project.id,
    ]);
    expect(receipts[0].n).toBe(0);
  });

  describe('targets', () => {
    it('refuses user_id with audience all, and neither', async () => {
      await expectInvalid({ ...base, user_id: 'u1', audience: 'all' }, 'audience');
      await expectInvalid({ ...base }, 'user_id');
      await expectInvalid({ ...base, audience: 'user' }, 'user_id');
    });

    it('refuses a group field with user_id or audience all, naming the conflicting field', async () => {
      const both = await expectInvalid({ ...base, user_id: 'u1', user_ids: ['u2'] }, 'user_id');
      expect(both.body.error.message).toContain('user_ids');
      await expectInvalid({ ...base, audience: 'all', emails: ['a@example.com'] }, 'audience');
    });

    it('stores nothing after a refusal', async () => {
      await expectInvalid({ ...base, user_id: 'u1', audience: 'all' }, 'audience');
      expect(await t.db.manager.count(NotificationEntity, { where: { projectId: seeded.project.id } })).toBe(0);
      const usage = await t.api.as(seeded.secretKey).get('/v1/notifications/usage').expect(200);
      expect(usage.body.data).toEqual({ month: month(), sent: 0, limit: 20000, remaining: 20000 });
    });
  });

  describe('field rules', () => {
    it('checks lengths: user_id 256, title 200, body 2000, action label 40', async () => {
      await send({ ...base, user_id: 'u'.repeat(256) }).expect(201);
      await expectInvalid({ ...base, user_id: 'u'.repeat(257) }, 'user_id');
      await send({ ...base, user_id: 'u', title: 't'.repeat(200) }).expect(201);
      await expectInvalid({ ...base, user_id: 'u', title: 't'.repeat(201) }, 'title');
      await send({ ...base, user_id: 'u', body: 'b'.repeat(2000) }).expect(201);
      await expectInvalid({ ...base, user_id: 'u', body: 'b'.repeat(2001) }, 'body');
      await expectInvalid({ user_id: 'u', body: 'b' }, 'title');
      await expectInvalid({ user_id: 'u', title: 't' }, 'body');
      await expectInvalid({ ...base, user_id: 'u', title: '   ' }, 'title');
      await send({ ...base, user_id: 'u', actions: [{ label: 'l'.repeat(40), url: '/x' }] }).expect(201);
      await expectInvalid({ ...base, user_id: 'u', actions: [{ label: 'l'.repeat(41), url: '/x' }] }, 'actions.0.label');
    });

    it('takes http(s) URLs and site paths, refuses other schemes and //host', async () => {
      for (const url of ['https://example.com/a', 'http://example.com', '/settings?tab=2']) {
        await send({ ...base, user_id: 'u', action_url: url }).expect(201);
      }
      for (const url of [
        'javascript:alert(1)',
        'data:text/html,x',
        'mailto:a@example.com',
        '//evil.example/x',
        'ftp://example.com',
        'relative/path',
      ]) {
        await expectInvalid({ ...base, user_id: 'u', action_url: url }, 'action_url');
      }
      await expectInvalid(
        {
          ...base,
          user_id: 'u',
          actions: [
            { label: 'Go', url: '/ok' },
            { label: 'Bad', url: 'javascript:x' },
          ],
        },
        'actions.1.url',
      );
    });

    it('takes at most 2 actions', async () => {
      const action = { label: 'Go', url: '/go' };
      await expectInvalid({ ...base, user_id: 'u', actions: [action, action, action] }, 'actions');
    });

    it('checks icon, category, pinned and unknown fields', async () => {
      await expectInvalid({ ...base, user_id: 'u', icon: 'rocket' }, 'icon');
      for (const category of ['Billing', 'has space', '-lead', 'x'.repeat(33), '']) {
        await expectInvalid({ ...base, user_id: 'u', category }, 'category');
      }
      await send({ ...base, user_id: 'u', category: 'x'.repeat(32) }).expect(201);
      await send({ ...base, user_id: 'u', category: 'product_updates-2' }).expect(201);
      await expectInvalid({ ...base, user_id: 'u', pinned: 'yes' }, 'pinned');
      await expectInvalid({ ...base, user_id: 'u', colour: 'red' }, 'colour');
    });

    it('takes a data object of at most 2048 bytes of UTF-8 JSON', async () => {
      // {"k":"…"} is 8 bytes of syntax; "é" is 2 bytes in UTF-8.
      await send({ ...base, user_id: 'u', data: { k: 'é'.repeat(1020) } }).expect(201);
      const big = await expectInvalid({ ...base, user_id: 'u', data: { k: 'é'.repeat(1021) } }, 'data');
      expect(big.body.error.message).toContain('2050');
      await expectInvalid({ ...base, user_id: 'u', data: [1, 2] }, 'data');
      await expectInvalid({ ...base, user_id: 'u', data: 'text' }, 'data');
    });

    it("takes reactions true (the project's set, read fresh), a list from the set, and refuses others", async () => {
      const all = await send({ ...base, user_id: 'u', reactions: true }).expect(201);
      expect(all.body.data.reactions).toEqual(['like', 'celebrate', 'dislike']);
      await t.db.manager.query(
        `UPDATE projects SET settings = settings || '{"changelog_reaction_set": ["fire", "eyes"]}'::jsonb WHERE id = $1`,
        [seeded.project.id],
      );
      const fresh = await send({ ...base, user_id: 'u', reactions: true }).expect(201);
      expect(fresh.body.data.reactions).toEqual(['fire', 'eyes']);
      await send({ ...base, user_id: 'u', reactions: ['eyes', 'fire'] }).expect(201);
      const outside = await expectInvalid({ ...base, user_id: 'u', reactions: ['eyes', 'like'] }, 'reactions.1');
      expect(outside.body.error.message).toContain('fire, eyes');
      await expectInvalid({ ...base, user_id: 'u', reactions: ['a', 'b', 'c', 'd', 'e', 'f'] }, 'reactions');
      await expectInvalid({ ...base, user_id: 'u', reactions: ['fire', 'fire'] }, 'reactions');
      await expectInvalid({ ...base, user_id: 'u', reactions: 'fire' }, 'reactions');
      const none = await send({ ...base, user_id: 'u', reactions: false }).expect(201);
      expect(none.body.data.reactions).toBeNull();
    });

    it('schedules send_at up to 60 days ahead, sends a past one now', async () => {
      const now = Date.now();
      const ahead = new Date(now + 60 * 86_400_000 - 60_000).toISOString();
      const scheduled = await send({ ...base, user_id: 'u', send_at: ahead }).expect(201);
      expect(scheduled.body.data).toMatchObject({ scheduled: true, visible_at: ahead });
      await expectInvalid({ ...base, user_id: 'u', send_at: new Date(now + 61 * 86_400_000).toISOString() }, 'send_at');
      await expectInvalid({ ...base, user_id: 'u', send_at: 'tomorrow' }, 'send_at');
      const past = await send({ ...base, user_id: 'u', send_at: '2020-01-01T00:00:00Z' }).expect(201);
      expect(past.body.data.scheduled).toBeUndefined();
      const row = await t.db.manager.findOneByOrFail(NotificationEntity, { id: past.body.data.id });
      expect(row.status).toBe('visible');
      expect(row.visibleAt.getTime()).toBeGreaterThan(now - 5_000);
    });
  });

  describe('auth', () => {
    it('is for secret keys only', async () => {
      const res = await send({ ...base, user_id: 'u' }, seeded.publishableKey).expect(403);
      expect(res.body.error.code).toBe('KEY_INSUFFICIENT_PERMISSIONS');
      expect(
        (
          await t.api
            .post('/v1/notifications')
            .send({ ...base, user_id: 'u' })
            .expect(401)
        ).body.error.code,
      ).toBe('MISSING_AUTH');
    });
  });

  describe('Idempotency-Key', () => {
    it('replays the same send once and refuses another body', async () => {
      const first = await send({ ...base, user_id: 'u' })
        .set('Idempotency-Key', 'ntf-1')
        .expect(201);
      const replay = await t.api
        .as(seeded.secretKey)
        .post('/v1/notifications')
        .set('Idempotency-Key', 'ntf-1')
        .send({ ...base, user_id: 'u' })
        .expect(201);
      expect(replay.body).toEqual(first.body);
      const conflict = await t.api
        .as(seeded.secretKey)
        .post('/v1/notifications')
        .set('Idempotency-Key', 'ntf-1')
        .send({ ...base, user_id: 'v' })
        .expect(409);
      expect(conflict.body.error.code).toBe('IDEMPOTENCY_CONFLICT');
      expect(await t.db.manager.count(NotificationEntity, { where: { projectId: seeded.project.id } })).toBe(1);
    });
  });

  describe('monthly quota', () => {
    const setSent = (sent: number) =>
      t.db.manager.query('INSERT INTO notification_usage (project_id, month, sent) VALUES ($1, $2, $3)', [
        seeded.project.id,
        month(),
        sent,
      ]);

    it('lets exactly the remaining sends through when 30 race for the last 5', async () => {
      await setSent(19_995);
      const results = await Promise.all(Array.from({ length: 30 }, (_, i) => send({ ...base, user_id: `u${i}` })));
      const statuses = results.map((res) => res.status);
      expect(statuses.filter((s) => s === 201)).toHaveLength(5);
      expect(statuses.filter((s) => s === 403)).toHaveLength(25);
      const refused = results.find((res) => res.status === 403);
      expect(refused?.body.error.code).toBe('PLAN_LIMIT_REACHED');
      expect(await t.db.manager.count(NotificationEntity, { where: { projectId: seeded.project.id } })).toBe(5);
      const usage = await t.api.as(seeded.secretKey).get('/v1/notifications/usage').expect(200);
      expect(usage.body.data).toEqual({ month: month(), sent: 20000, limit: 20000, remaining: 0 });
    });

    it('counts a group and a broadcast once, and uses the Free limit of 1000', async () => {
      const free = await t.seedProject({ plan: 'free' });
      const res = await send({ ...base, user_ids: ['a', 'b', 'c'] }, free.secretKey).expect(201);
      expect(res.body.meta.usage).toEqual({ month: month(), sent: 1, limit: 1000, remaining: 999 });
      const all = await send({ ...base, audience: 'all' }, free.secretKey).expect(201);
      expect(all.body.meta.usage.sent).toBe(2);
    });

    it('counts a scheduled send in the month of scheduling and gives it back when deleted', async () => {
      const later = new Date(Date.now() + 40 * 86_400_000).toISOString();
      const res = await send({ ...base, user_id: 'u', send_at: later }).expect(201);
      expect(res.body.meta.usage.sent).toBe(1);
      const row = await t.db.manager.findOneByOrFail(NotificationEntity, { id: res.body.data.id });
      expect(row.usageMonth).toBe(month());
      await t.api.as(seeded.secretKey).delete(`/v1/notifications/${res.body.data.id}`).expect(200);
      expect((await t.api.as(seeded.secretKey).get('/v1/notifications/usage').expect(200)).body.data.sent).toBe(0);
      const shown = await send({ ...base, user_id: 'u' }).expect(201);
      await t.api.as(seeded.secretKey).delete(`/v1/notifications/${shown.body.data.id}`).expect(200);
      expect((await t.api.as(seeded.secretKey).get('/v1/notifications/usage').expect(200)).body.data.sent).toBe(1);
    });
  });
});
