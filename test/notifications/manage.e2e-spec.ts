import { NotificationEntity } from '../../src/notifications/entities/notification.entity';
import { NotificationReceiptEntity } from '../../src/notifications/entities/notification-receipt.entity';
import { NotificationRecipientEntity } from '../../src/notifications/entities/notification-recipient.entity';
import { NotificationReleaseEntity } from '../../src/notifications/entities/notification-release.entity';
import { TestIdentityProvider } from '../support/identity-provider';
import { SeededProject, TestApp } from '../support/test-app';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const HOUR = 3_600_000;

describe('Managing notifications', () => {
  let idp: TestIdentityProvider;
  let t: TestApp;
  let seeded: SeededProject;

  beforeAll(async () => {
    idp = await TestIdentityProvider.start();
    t = await TestApp.start({ env: idp.env() });
  });
  afterAll(async () => {
    await t.close();
    await idp.close();
  });
  beforeEach(async () => {
    t.clock.reset();
    seeded = await t.seedProject({ plan: 'indie' });
  });

  const base = { title: 'Hello', body: 'Something happened.' };
  const api = (key = seeded.secretKey) => t.api.as(key);
  const send = async (body: Record<string, unknown>, key = seeded.secretKey): Promise<string> =>
    (
      await api(key)
        .post('/v1/notifications')
        .send({ ...base, ...body })
        .expect(201)
    ).body.data.id;
  const list = async (query: string, key = seeded.secretKey): Promise<string[]> =>
    (await api(key).get(`/v1/notifications${query}`).expect(200)).body.data.map((n: { id: string }) => n.id);
  const receipt = (
    notificationId: string,
    userId: string,
    fields: Partial<Record<'read' | 'clicked' | 'archived', boolean>> & { reaction?: string },
  ) =>
    t.db.manager.insert(NotificationReceiptEntity, {
      notificationId,
      userId,
      projectId: seeded.project.id,
      readAt: fields.read || fields.clicked || fields.archived ? t.clock.now() : null,
      clickedAt: fields.clicked ? t.clock.now() : null,
      archivedAt: fields.archived ? t.clock.now() : null,
      reaction: fields.reaction ?? null,
      updatedAt: t.clock.now(),
    });
  const bellUsers = (lastSeenAt: Date, ids: string[]) =>
    t.db.manager.query(
      `INSERT INTO bell_users (project_id, user_id, first_seen_at, last_seen_at) SELECT $1, u, $2, $2 FROM unnest($3::varchar[]) u`,
      [seeded.project.id, lastSeenAt, ids],
    );

  describe('GET /v1/notifications', () => {
    it('lists newest first and filters by user (groups included), audience, category and status', async () => {
      const single = await send({ user_id: 'ada', category: 'billing' });
      const group = await send({ user_ids: ['ada', 'bob'] });
      const other = await send({ user_id: 'bob', category: 'billing' });
      const broadcast = await send({ audience: 'all', category: 'news' });
      const scheduled = await send({ user_id: 'ada', send_at: new Date(Date.now() + HOUR).toISOString() });
      expect(await list('')).toEqual([scheduled, broadcast, other, group, single]);
      expect(await list('?user_id=ada')).toEqual([scheduled, group, single]);
      expect(await list('?audience=all')).toEqual([broadcast]);
      expect(await list('?audience=user')).toEqual([scheduled, other, group, single]);
      expect(await list('?audience=group')).toEqual([group]);
      expect(await list('?category=billing')).toEqual([other, single]);
      expect(await list('?status=scheduled')).toEqual([scheduled]);

      await receipt(group, 'bob', { read: true });
      await receipt(broadcast, 'zed', { clicked: true });
      await receipt(single, 'ada', { archived: false, reaction: 'like' }); // touched, not read
      expect(await list('?status=read')).toEqual([broadcast, group]);
      expect(await list('?status=unread')).toEqual([other, single]);
      expect(await list('?status=read&user_id=ada')).toEqual([]);
      expect(await list('?status=unread&user_id=ada')).toEqual([group, single]);
      expect(await list('?status=read&user_id=bob')).toEqual([group]);

      const items = (await api().get('/v1/notifications?user_id=ada&status=scheduled').expect(200)).body.data;
      expect(items[0]).toMatchObject({ id: scheduled, scheduled: true, visible_at: expect.any(String), audience: 'user', user_id: 'ada' });
    });

    it('pages with limit and cursor', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 5; i += 1) ids.push(await send({ user_id: `u${i}` }));
      const first = await api().get('/v1/notifications?limit=2').expect(200);
      expect(first.body.data.map((n: { id: string }) => n.id)).toEqual([ids[4], ids[3]]);
      expect(first.body.meta).toMatchObject({ has_more: true, next_cursor: expect.any(String) });
      const second = await api().get(`/v1/notifications?limit=2&cursor=${first.body.meta.next_cursor}`).expect(200);
      expect(second.body.data.map((n: { id: string }) => n.id)).toEqual([ids[2], ids[1]]);
    });

    it("shows nothing of another project's, checks its query, and is for secret keys only", async () => {
      const other = await t.seedProject();
      await send({ user_id: 'ada' }, other.secretKey);
      expect(await list('')).toEqual([]);
      for (const [query, param] of [
        ['?limit=0', 'limit'],
        ['?limit=101', 'limit'],
        ['?status=archived', 'status'],
        ['?audience=everyone', 'audience'],
        ['?category=Bad%20One', 'category'],
      ]) {
        expect((await api().get(`/v1/notifications${query}`).expect(400)).body.error).toMatchObject({ code: 'VALIDATION_ERROR', param });
      }
      expect((await api(seeded.publishableKey).get('/v1/notifications').expect(403)).body.error.code).toBe('KEY_INSUFFICIENT_PERMISSIONS');
    });
  });

  describe('GET /v1/notifications/{id}', () => {
    const stats = async (id: string) => (await api().get(`/v1/notifications/${id}`).expect(200)).body.data.stats;

    it('counts a single send: reached 1, read, clicked and the rates', async () => {
      const id = await send({ user_id: 'ada' });
      expect(await stats(id)).toEqual({ reached: 1, read: 0, clicked: 0, read_rate: 0, click_rate: 0, reactions: null, active_7d: null });
      await receipt(id, 'ada', { clicked: true });
      expect(await stats(id)).toEqual({ reached: 1, read: 1, clicked: 1, read_rate: 1, click_rate: 1, reactions: null, active_7d: null });
    });

    it('counts a group over its size, with rates to three decimals and reactions per name', async () => {
      const id = await send({ user_ids: ['a', 'b', 'c'], reactions: true });
      await receipt(id, 'a', { read: true, reaction: 'like' });
      await receipt(id, 'b', { clicked: true, reaction: 'like' });
      await receipt(id, 'c', { reaction: 'dislike' });
      const detail = (await api().get(`/v1/notifications/${id}`).expect(200)).body.data;
      expect(detail).toMatchObject({ id, audience: 'group', recipient_count: 3, reactions: ['like', 'celebrate', 'dislike'] });
      expect(detail.stats).toEqual({
        reached: 3,
        read: 2,
        clicked: 1,
        read_rate: 0.667,
        click_rate: 0.333,
        reactions: { like: 2, celebrate: 0, dislike: 1 },
        active_7d: null,
      });
    });

    it('counts a broadcast over the bell users seen since it showed, never below read, with active_7d', async () => {
      const now = t.clock.now().getTime();
      await bellUsers(new Date(now - 8 * 24 * HOUR), ['old1', 'old2']);
      await bellUsers(new Date(now - 2 * 24 * HOUR), ['week1']);
      const id = await send({ audience: 'all' });
      expect(await stats(id)).toEqual({
        reached: 0,
        read: 0,
        clicked: 0,
        read_rate: null,
        click_rate: null,
        reactions: null,
        active_7d: 1,
      });
      // old1 has read it without their bell's visit being recorded yet (it moves at most hourly).
      await receipt(id, 'old1', { read: true });
      expect((await stats(id)).reached).toBe(1);
      await t.db.manager.query('UPDATE bell_users SET last_seen_at = $2 WHERE project_id = $1 AND user_id IN ($3, $4, $5)', [
        seeded.project.id,
        new Date(now + 1_000),
        'old1',
        'old2',
        'week1',
      ]);
      await bellUsers(new Date(now + 2_000), ['new1']);
      expect(await stats(id)).toEqual({ reached: 4, read: 1, clicked: 0, read_rate: 0.25, click_rate: 0, reactions: null, active_7d: 4 });
    });

    it('reports 0 reached while scheduled, and carries scheduled and visible_at', async () => {
      const at = new Date(Date.now() + HOUR).toISOString();
      const id = await send({ user_ids: ['a', 'b'], send_at: at });
      const detail = (await api().get(`/v1/notifications/${id}`).expect(200)).body.data;
      expect(detail).toMatchObject({ scheduled: true, visible_at: at });
      expect(detail.stats).toMatchObject({ reached: 0, read_rate: null, click_rate: null });
    });

    it("answers NOT_FOUND for another project's, an unknown or a malformed id", async () => {
      const other = await t.seedProject();
      const theirs = await send({ user_id: 'ada' }, other.secretKey);
      for (const id of [theirs, 'ntf_01JD3Z4Q9X8V7T6S5R4Q3P2N1M', 'nonsense']) {
        const res = await api().get(`/v1/notifications/${id}`).expect(404);
        expect(res.body.error).toMatchObject({ code: 'NOT_FOUND', param: 'id' });
      }
    });
  });

  describe('DELETE /v1/notifications/{id}', () => {
    it('removes it with its recipients and receipts; another project cannot', async () => {
      const id = await send({ user_ids: ['a', 'b'] });
      await receipt(id, 'a', { read: true });
      const other = await t.seedProject();
      expect((await api(other.secretKey).delete(`/v1/notifications/${id}`).expect(404)).body.error.code).toBe('NOT_FOUND');
      expect((await api().delete(`/v1/notifications/${id}`).expect(200)).body.data).toEqual({ id, deleted: true });
      expect(await t.db.manager.count(NotificationEntity, { where: { id } })).toBe(0);
      expect(await t.db.manager.count(NotificationRecipientEntity, { where: { notificationId: id } })).toBe(0);
      expect(await t.db.manager.count(NotificationReceiptEntity, { where: { notificationId: id } })).toBe(0);
      expect((await api().delete(`/v1/notifications/${id}`).expect(404)).body.error.code).toBe('NOT_FOUND');
      expect((await api(seeded.publishableKey).delete(`/v1/notifications/${id}`).expect(403)).body.error.code).toBe(
        'KEY_INSUFFICIENT_PERMISSIONS',
      );
    });
  });

  describe('scheduled release', () => {
    const releaseOf = (notificationId: string) => t.db.manager.findOneBy(NotificationReleaseEntity, { notificationId });

    it('turns a scheduled notification visible at send_at (sweeper after a missed job)', async () => {
      const at = new Date(t.clock.now().getTime() + HOUR);
      const id = await send({ user_id: 'ada', send_at: at.toISOString() });
      expect(await releaseOf(id)).toMatchObject({ status: 'pending', nextAttemptAt: at });
      await t.drainJobs();
      expect((await t.db.manager.findOneByOrFail(NotificationEntity, { id })).status).toBe('scheduled');
      t.clock.advance(HOUR + 1_000);
      await t.drainJobs();
      expect((await t.db.manager.findOneByOrFail(NotificationEntity, { id })).status).toBe('visible');
      expect(await releaseOf(id)).toMatchObject({ status: 'released', attempts: 1 });
      const item = (await api().get(`/v1/notifications/${id}`).expect(200)).body.data;
      expect(item.scheduled).toBeUndefined();
      expect(item.stats.reached).toBe(1);
    });

    it('fires through the delayed job on its own', async () => {
      const id = await send({ user_id: 'ada', send_at: new Date(Date.now() + 1_000).toISOString() });
      const deadline = Date.now() + 10_000;
      while ((await t.db.manager.findOneByOrFail(NotificationEntity, { id })).status !== 'visible') {
        if (Date.now() > deadline) throw new Error('the release never fired');
        await sleep(100);
      }
      expect(await releaseOf(id)).toMatchObject({ status: 'released' });
    });

    it('ends skipped when the notification is no longer scheduled, and vanishes with a deleted one', async () => {
      const at = new Date(t.clock.now().getTime() + HOUR).toISOString();
      const shown = await send({ user_id: 'ada', send_at: at });
      await t.db.manager.update(NotificationEntity, { id: shown }, { status: 'visible' });
      const deleted = await send({ user_id: 'bob', send_at: at });
      await api().delete(`/v1/notifications/${deleted}`).expect(200);
      expect(await releaseOf(deleted)).toBeNull();
      t.clock.advance(HOUR + 1_000);
      await t.drainJobs();
      expect(await releaseOf(shown)).toMatchObject({ status: 'skipped' });
      expect(await t.db.manager.count(NotificationEntity, { where: { id: deleted } })).toBe(0);
    });
  });

  describe('/v1/dashboard/notifications', () => {
    it('lists, gets and deletes in the project named by X-Service-Project, and nowhere else', async () => {
      const token = idp.token({ sub: 'user_notifications_dash', email: 'owner@example.com' });
      const provisioned = await t.api.as(token).post('/v1/auth/provision').send({ project_name: 'Dash' }).expect(200);
      const projectId: string = provisioned.body.data.project.id;
      const secretKey: string = provisioned.body.data.secret_key;
      const id = await send({ user_id: 'ada' }, secretKey);
      const dash = (method: 'get' | 'delete', path: string, project = projectId) =>
        t.api.as(token)[method](`/v1/dashboard/notifications${path}`).set('X-Service-Project', project);

      const listed = await dash('get', '?user_id=ada').expect(200);
      expect(listed.body.data.map((n: { id: string }) => n.id)).toEqual([id]);
      const got = await dash('get', `/${id}`).expect(200);
      expect(got.body.data).toMatchObject({ id, stats: { reached: 1, read: 0 } });
      expect((await dash('get', '?limit=0').expect(400)).body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'limit' });

      const other = await t.seedProject();
      const theirs = await send({ user_id: 'ada' }, other.secretKey);
      expect((await dash('get', `/${theirs}`).expect(404)).body.error.code).toBe('NOT_FOUND');
      expect((await dash('delete', `/${theirs}`).expect(404)).body.error.code).toBe('NOT_FOUND');
      expect((await dash('get', '', other.project.id).expect(404)).body.error.code).toBe('PROJECT_NOT_FOUND');
      expect((await t.api.as(secretKey).get('/v1/dashboard/notifications').expect(401)).body.error.code).toBe('WRONG_AUTH_TYPE');
      expect((await t.api.as(token).get('/v1/notifications').expect(401)).body.error.code).toBe('WRONG_AUTH_TYPE');

      expect((await dash('delete', `/${id}`).expect(200)).body.data).toEqual({ id, deleted: true });
      expect(await t.db.manager.count(NotificationEntity, { where: { id } })).toBe(0);
    });
  });
});
