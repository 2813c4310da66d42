import { NotificationReceiptEntity } from '../../src/notifications/entities/notification-receipt.entity';
import { receiptOf, seedNotification, userHashOf } from '../support/notification-seed';
import { PROBE_SIGNING_SECRETS, ProbeModule } from '../support/probe.module';
import { SeededProject, TestApp } from '../support/test-app';

// The identity helper's signing-secret reader is not on this branch: the probe module registers
// a reader over PROBE_SIGNING_SECRETS, as test/auth/end-user.e2e-spec.ts does.
const SECRET = 'svc_ntf_writeWRITEwriteWRITEwriteWRITEwr';
const DAY = 86_400_000;

describe('Bell writes', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start({ imports: [ProbeModule] });
  });
  afterAll(() => t.close());
  afterEach(() => t.clock.reset());

  async function project(legacy = false): Promise<SeededProject> {
    const seeded = await t.seedProject({ plan: 'indie', legacyNotifications: legacy });
    PROBE_SIGNING_SECRETS.set(seeded.project.id, { current: SECRET, previous: null });
    return seeded;
  }

  /** A browser's bell write for `userId` with a valid hash in the body. */
  const write = (p: SeededProject, method: 'patch' | 'post' | 'delete', path: string, userId: string, body: object = {}) =>
    t.api
      .as(p.publishableKey)
      [method](path)
      .send({ user_id: userId, user_hash: userHashOf(userId, SECRET), ...body });

  const ago = (ms: number) => new Date(t.clock.now().getTime() - ms);

  describe('PATCH /v1/notifications/{id}/read', () => {
    it('marks a broadcast read for one person only, writing their receipt on first touch', async () => {
      const p = await project();
      t.clock.freeze(new Date(Date.UTC(2030, 0, 1, 10)));
      const broadcast = await seedNotification(t, p.project.id, { title: 'Launch' });
      expect(await t.db.manager.countBy(NotificationReceiptEntity, { notificationId: broadcast.id })).toBe(0);

      const res = await write(p, 'patch', `/v1/notifications/${broadcast.id}/read`, 'ada').expect(200);
      expect(res.body.data).toMatchObject({
        id: broadcast.id,
        read: true,
        read_at: '2030-01-01T10:00:00.000Z',
        clicked: false,
        archived: false,
        broadcast: true,
      });
      expect(res.body.meta).toEqual({ unread_count: 0, poll_interval_seconds: 20 });
      // Again: still read at the first time.
      t.clock.advance(60_000);
      const again = await write(p, 'patch', `/v1/notifications/${broadcast.id}/read`, 'ada').expect(200);
      expect(again.body.data.read_at).toBe('2030-01-01T10:00:00.000Z');

      expect(await t.db.manager.countBy(NotificationReceiptEntity, { notificationId: broadcast.id })).toBe(1);
      const bob = await t.api.as(p.secretKey).get('/v1/notifications/inbox?user_id=bob').expect(200);
      expect(bob.body.data[0]).toMatchObject({ id: broadcast.id, read: false, read_at: null });
      expect(bob.body.meta.unread_count).toBe(1);
    });

    it("answers 404 for a notification that is not this person's: another's, scheduled, expired, another project's, unknown", async () => {
      const p = await project();
      const other = await project();
      const bobs = await seedNotification(t, p.project.id, { userId: 'bob' });
      const group = await seedNotification(t, p.project.id, { userIds: ['bob', 'cy'] });
      const scheduled = await seedNotification(t, p.project.id, { visibleAt: ago(-DAY) });
      const expired = await seedNotification(t, p.project.id, { visibleAt: ago(31 * DAY) });
      const otherProject = await seedNotification(t, other.project.id, {});
      for (const id of [bobs.id, group.id, scheduled.id, expired.id, otherProject.id, 'ntf_01JD3Z4Q9X8V7T6S5R4Q3P2N1M', 'nope']) {
        const res = await write(p, 'patch', `/v1/notifications/${id}/read`, 'ada').expect(404);
        expect(res.body).toMatchObject({ data: null, error: { code: 'NOT_FOUND' } });
      }
      expect(await receiptOf(t, bobs.id, 'ada')).toBeNull();
      await write(p, 'patch', `/v1/notifications/${group.id}/read`, 'cy').expect(200);
    });

    it('skips the hash on a legacy project, saying so; needs it elsewhere', async () => {
      const legacy = await project(true);
      const n = await seedNotification(t, legacy.project.id, { userId: 'ada' });
      const res = await t.api.as(legacy.publishableKey).patch(`/v1/notifications/${n.id}/read`).send({ user_id: 'ada' }).expect(200);
      expect(res.body.data.read).toBe(true);
      expect(res.body.meta).toMatchObject({ identity_verification: 'off', unread_count: 0 });
      expect(res.body.meta.warnings).toHaveLength(1);
      const strict = await project();
      const m = await seedNotification(t, strict.project.id, { userId: 'ada' });
      const refused = await t.api.as(strict.publishableKey).patch(`/v1/notifications/${m.id}/read`).send({ user_id: 'ada' }).expect(403);
      expect(refused.body.error).toMatchObject({ code: 'USER_HASH_INVALID', param: 'user_hash' });
      const header = await t.api
        .as(strict.publishableKey)
        .patch(`/v1/notifications/${m.id}/read?user_id=ada`)
        .set('X-Service-User-Hash', userHashOf('ada', SECRET))
        .expect(200);
      expect(header.body.data.read).toBe(true);
    });
  });

  describe('PATCH /v1/notifications/{id}/click', () => {
    it('records a click and marks read; needs the hash even on a legacy project', async () => {
      const p = await project();
      const n = await seedNotification(t, p.project.id, { userId: 'ada' });
      const res = await write(p, 'patch', `/v1/notifications/${n.id}/click`, 'ada').expect(200);
      expect(res.body.data).toMatchObject({ read: true, clicked: true, archived: false });
      expect(res.body.meta.unread_count).toBe(0);
      const legacy = await project(true);
      const m = await seedNotification(t, legacy.project.id, { userId: 'ada' });
      const refused = await t.api.as(legacy.publishableKey).patch(`/v1/notifications/${m.id}/click`).send({ user_id: 'ada' }).expect(403);
      expect(refused.body.error.code).toBe('USER_HASH_INVALID');
    });
  });

  describe('PATCH /v1/notifications/{id}/archive', () => {
    it('archives (and reads) for this person, and {archived: false} restores it, still read', async () => {
      const p = await project();
      const n = await seedNotification(t, p.project.id, {});
      const archived = await write(p, 'patch', `/v1/notifications/${n.id}/archive`, 'ada').expect(200);
      expect(archived.body.data).toMatchObject({ archived: true, read: true });
      expect((await t.api.as(p.secretKey).get('/v1/notifications/inbox?user_id=ada').expect(200)).body.data).toEqual([]);
      const restored = await write(p, 'patch', `/v1/notifications/${n.id}/archive`, 'ada', { archived: false }).expect(200);
      expect(restored.body.data).toMatchObject({ archived: false, read: true });
      const inbox = await t.api.as(p.secretKey).get('/v1/notifications/inbox?user_id=ada').expect(200);
      expect(inbox.body.data.map((x: { id: string }) => x.id)).toEqual([n.id]);
      expect((await receiptOf(t, n.id, 'ada'))?.archivedAt).toBeNull();
    });

    it('refuses a non-boolean archived', async () => {
      const p = await project();
      const n = await seedNotification(t, p.project.id, {});
      const res = await write(p, 'patch', `/v1/notifications/${n.id}/archive`, 'ada', { archived: 'no' }).expect(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'archived' });
    });
  });

  describe('PATCH /v1/notifications/read-all', () => {
    it('marks every unread notification read, broadcasts without receipts included, for this person only', async () => {
      const p = await project();
      await seedNotification(t, p.project.id, { userId: 'ada' });
      await seedNotification(t, p.project.id, { userIds: ['ada', 'bob'] });
      const b1 = await seedNotification(t, p.project.id, { visibleAt: ago(DAY) });
      await seedNotification(t, p.project.id, { visibleAt: ago(2 * DAY), pinned: true });
      await seedNotification(t, p.project.id, { visibleAt: ago(31 * DAY) });
      await seedNotification(t, p.project.id, { visibleAt: ago(-DAY) });
      await write(p, 'patch', `/v1/notifications/${b1.id}/read`, 'ada').expect(200);

      const res = await write(p, 'patch', '/v1/notifications/read-all', 'ada').expect(200);
      expect(res.body.data).toEqual({ updated: 3, unread_count: 0 });
      expect(res.body.meta).toEqual({ poll_interval_seconds: 20 });
      const again = await write(p, 'patch', '/v1/notifications/read-all', 'ada').expect(200);
      expect(again.body.data).toEqual({ updated: 0, unread_count: 0 });
      const bob = await t.api.as(p.secretKey).get('/v1/notifications/unread/count?user_id=bob').expect(200);
      expect(bob.body.data.unread_count).toBe(3);
    });

    it('marks only one category when named', async () => {
      const p = await project();
      await seedNotification(t, p.project.id, { userId: 'ada', category: 'billing' });
      await seedNotification(t, p.project.id, { category: 'billing' });
      await seedNotification(t, p.project.id, { category: 'product' });
      await seedNotification(t, p.project.id, { userId: 'ada' });
      const res = await write(p, 'patch', '/v1/notifications/read-all', 'ada', { category: 'billing' }).expect(200);
      expect(res.body.data).toEqual({ updated: 2, unread_count: 2 });
      const unread = await t.api.as(p.secretKey).get('/v1/notifications/unread?user_id=ada').expect(200);
      expect(unread.body.data.map((n: { category: string | null }) => n.category).sort()).toEqual([null, 'product']);
      const bad = await write(p, 'patch', '/v1/notifications/read-all', 'ada', { category: 'Not A Name' }).expect(400);
      expect(bad.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'category' });
    });

    it('always needs the hash from a browser', async () => {
      const legacy = await project(true);
      const res = await t.api.as(legacy.publishableKey).patch('/v1/notifications/read-all').send({ user_id: 'ada' }).expect(403);
      expect(res.body.error.code).toBe('USER_HASH_INVALID');
    });
  });

  describe('POST and DELETE /v1/notifications/{id}/reactions', () => {
    it('keeps one reaction per person, a new one replacing the old, and removes it', async () => {
      const p = await project();
      const n = await seedNotification(t, p.project.id, { reactions: ['like', 'celebrate'] });
      const first = await write(p, 'post', `/v1/notifications/${n.id}/reactions`, 'ada', { reaction: 'like' }).expect(200);
      expect(first.body.data).toMatchObject({ reactions: ['like', 'celebrate'], reaction: 'like', read: true });
      const second = await write(p, 'post', `/v1/notifications/${n.id}/reactions`, 'ada', { reaction: 'celebrate' }).expect(200);
      expect(second.body.data.reaction).toBe('celebrate');
      await write(p, 'post', `/v1/notifications/${n.id}/reactions`, 'bob', { reaction: 'like' }).expect(200);
      expect(await t.db.manager.countBy(NotificationReceiptEntity, { notificationId: n.id })).toBe(2);
      expect((await receiptOf(t, n.id, 'ada'))?.reaction).toBe('celebrate');

      const removed = await write(p, 'delete', `/v1/notifications/${n.id}/reactions`, 'ada').expect(200);
      expect(removed.body.data).toMatchObject({ reaction: null, read: true });
      expect((await receiptOf(t, n.id, 'bob'))?.reaction).toBe('like');
      // Removing without a reaction writes nothing.
      const none = await write(p, 'delete', `/v1/notifications/${n.id}/reactions`, 'cy').expect(200);
      expect(none.body.data.reaction).toBeNull();
      expect(await receiptOf(t, n.id, 'cy')).toBeNull();
    });

    it('refuses a name outside the list, and any reaction on a notification that takes none', async () => {
      const p = await project();
      const n = await seedNotification(t, p.project.id, { reactions: ['like'] });
      const outside = await write(p, 'post', `/v1/notifications/${n.id}/reactions`, 'ada', { reaction: 'fire' }).expect(400);
      expect(outside.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'reaction' });
      expect(outside.body.error.message).toContain('like');
      const plain = await seedNotification(t, p.project.id, {});
      const none = await write(p, 'post', `/v1/notifications/${plain.id}/reactions`, 'ada', { reaction: 'like' }).expect(400);
      expect(none.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'reaction' });
      const missing = await write(p, 'post', `/v1/notifications/${n.id}/reactions`, 'ada', {}).expect(400);
      expect(missing.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'reaction' });
      expect(await receiptOf(t, n.id, 'ada')).toBeNull();
      const other = await project();
      const res = await write(other, 'post', `/v1/notifications/${n.id}/reactions`, 'ada', { reaction: 'like' }).expect(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    });
  });
});
