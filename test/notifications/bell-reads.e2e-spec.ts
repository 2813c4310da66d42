import { BellUserEntity } from '../../src/notifications/entities/bell-user.entity';
import { seedNotification, userHashOf } from '../support/notification-seed';
import { PROBE_SIGNING_SECRETS, ProbeModule } from '../support/probe.module';
import { SeededProject, TestApp } from '../support/test-app';
import type { PlanName } from '../../src/projects/plans';

// The identity helper's signing-secret reader is not on this branch: the probe module registers
// a reader over PROBE_SIGNING_SECRETS, as test/auth/end-user.e2e-spec.ts does.
const SECRET = 'svc_ntf_bellBELLbellBELLbellBELLbellBELL';
const DAY = 86_400_000;

describe('Bell reads', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start({ imports: [ProbeModule] });
  });
  afterAll(() => t.close());
  afterEach(() => t.clock.reset());

  async function project(plan: PlanName = 'indie', legacy = false): Promise<SeededProject> {
    const seeded = await t.seedProject({ plan, legacyNotifications: legacy });
    PROBE_SIGNING_SECRETS.set(seeded.project.id, { current: SECRET, previous: null });
    return seeded;
  }

  /** A browser's bell call for `userId` with a valid hash. */
  const asUser = (p: SeededProject, userId: string, path: string) =>
    t.api
      .as(p.publishableKey)
      .get(`${path}${path.includes('?') ? '&' : '?'}user_id=${encodeURIComponent(userId)}`)
      .set('X-Service-User-Hash', userHashOf(userId, SECRET));

  const ago = (ms: number) => new Date(t.clock.now().getTime() - ms);

  describe('GET /v1/notifications/inbox', () => {
    it("lists the person's own notifications and the project's broadcasts, newest first, with the badge and poll interval", async () => {
      const p = await project('indie');
      const other = await project('indie');
      const old = await seedNotification(t, p.project.id, { userId: 'ada', title: 'Old', visibleAt: ago(3 * 60_000) });
      const group = await seedNotification(t, p.project.id, { userIds: ['ada', 'bob'], title: 'Group', visibleAt: ago(2 * 60_000) });
      const broadcast = await seedNotification(t, p.project.id, { title: 'Broadcast', visibleAt: ago(60_000), category: 'product' });
      await seedNotification(t, p.project.id, { userId: 'bob', title: 'Not Ada' });
      await seedNotification(t, other.project.id, { userId: 'ada', title: 'Other project' });
      await seedNotification(t, other.project.id, { title: 'Other broadcast' });

      const res = await asUser(p, 'ada', '/v1/notifications/inbox').expect(200);
      expect(res.body.data.map((n: { id: string }) => n.id)).toEqual([broadcast.id, group.id, old.id]);
      expect(res.body.meta).toEqual({ unread_count: 3, poll_interval_seconds: 20 });
      expect(res.body.data[0]).toEqual({
        id: broadcast.id,
        title: 'Broadcast',
        body: 'Something happened.',
        action_url: null,
        icon: 'info',
        category: 'product',
        actions: [],
        data: null,
        created_at: broadcast.createdAt.toISOString(),
        read: false,
        read_at: null,
        clicked: false,
        archived: false,
        broadcast: true,
        pinned: false,
        reactions: null,
        reaction: null,
      });
      expect(res.body.data[1].broadcast).toBe(false);
    });

    it('shows broadcasts for 30 days, pinned ones after that, and nothing scheduled', async () => {
      const p = await project('builder');
      const inWindow = await seedNotification(t, p.project.id, { title: '29 days', visibleAt: ago(29 * DAY) });
      await seedNotification(t, p.project.id, { title: '31 days', visibleAt: ago(31 * DAY) });
      const pinnedOld = await seedNotification(t, p.project.id, { title: 'Pinned, 40 days', visibleAt: ago(40 * DAY), pinned: true });
      await seedNotification(t, p.project.id, { title: 'Scheduled broadcast', visibleAt: ago(-60_000) });
      await seedNotification(t, p.project.id, { userId: 'ada', title: 'Scheduled for Ada', visibleAt: ago(-60_000) });

      const res = await asUser(p, 'ada', '/v1/notifications/inbox').expect(200);
      expect(res.body.data.map((n: { title: string }) => n.title)).toEqual(['Pinned, 40 days', '29 days']);
      expect(res.body.meta).toMatchObject({ unread_count: 2, poll_interval_seconds: 15 });
      expect([pinnedOld.id, inWindow.id]).toEqual(res.body.data.map((n: { id: string }) => n.id));

      // Once its time comes the scheduled ones show, without waiting for a job.
      t.clock.advance(2 * 60_000);
      const later = await asUser(p, 'ada', '/v1/notifications/unread/count').expect(200);
      expect(later.body.data).toEqual({ unread_count: 4 });
    });

    it('keeps pinned notifications on top, read or not, until the person archives them', async () => {
      const p = await project();
      const pinned = await seedNotification(t, p.project.id, { title: 'Pinned', visibleAt: ago(DAY), pinned: true });
      const newer = await seedNotification(t, p.project.id, { userId: 'ada', title: 'Newer' });
      const ids = async (user: string) =>
        (await asUser(p, user, '/v1/notifications/inbox').expect(200)).body.data.map((n: { id: string }) => n.id);

      expect(await ids('ada')).toEqual([pinned.id, newer.id]);
      await t.api.as(p.secretKey).patch(`/v1/notifications/${pinned.id}/read`).send({ user_id: 'ada' }).expect(200);
      expect(await ids('ada')).toEqual([pinned.id, newer.id]);
      await t.api.as(p.secretKey).patch(`/v1/notifications/${pinned.id}/archive`).send({ user_id: 'ada' }).expect(200);
      expect(await ids('ada')).toEqual([newer.id]);
      // Restored, it is pinned again; for Bob it was never archived.
      await t.api.as(p.secretKey).patch(`/v1/notifications/${pinned.id}/archive`).send({ user_id: 'ada', archived: false }).expect(200);
      expect(await ids('ada')).toEqual([pinned.id, newer.id]);
      expect(await ids('bob')).toEqual([pinned.id]);
    });

    it('applies limit, since, category and archived=only, and leaves archived ones out otherwise', async () => {
      const p = await project();
      const made = [];
      for (let i = 5; i >= 1; i -= 1) {
        made.push(
          await seedNotification(t, p.project.id, {
            userId: 'ada',
            title: `N${i}`,
            category: i % 2 ? 'billing' : 'product',
            visibleAt: ago(i * 60_000),
          }),
        );
      }
      // made: N5 (oldest, billing), N4 product, N3 billing, N2 product, N1 (newest, billing)
      const titles = (res: { body: { data: { title: string }[] } }) => res.body.data.map((n) => n.title);
      expect(titles(await asUser(p, 'ada', '/v1/notifications/inbox?limit=2').expect(200))).toEqual(['N1', 'N2']);
      expect(titles(await asUser(p, 'ada', '/v1/notifications/inbox?category=billing').expect(200))).toEqual(['N1', 'N3', 'N5']);
      const since = encodeURIComponent(ago(3 * 60_000).toISOString());
      expect(titles(await asUser(p, 'ada', `/v1/notifications/inbox?since=${since}`).expect(200))).toEqual(['N1', 'N2']);

      await t.api.as(p.secretKey).patch(`/v1/notifications/${made[3].id}/archive`).send({ user_id: 'ada' }).expect(200);
      const inbox = await asUser(p, 'ada', '/v1/notifications/inbox').expect(200);
      expect(titles(inbox)).toEqual(['N1', 'N3', 'N4', 'N5']);
      expect(inbox.body.meta.unread_count).toBe(4);
      const archived = await asUser(p, 'ada', '/v1/notifications/inbox?archived=only').expect(200);
      expect(titles(archived)).toEqual(['N2']);
      expect(archived.body.data[0]).toMatchObject({ archived: true, read: true });
      // The badge is the bell's, whatever the list's filters.
      expect(archived.body.meta.unread_count).toBe(4);
    });

    it('refuses bad filters with VALIDATION_ERROR naming the field', async () => {
      const p = await project();
      for (const [query, param] of [
        ['limit=0', 'limit'],
        ['limit=51', 'limit'],
        ['since=yesterday', 'since'],
        ['category=Big%20Name', 'category'],
        ['archived=yes', 'archived'],
      ]) {
        const res = await asUser(p, 'ada', `/v1/notifications/inbox?${query}`).expect(400);
        expect(res.body).toMatchObject({ data: null, error: { code: 'VALIDATION_ERROR', param } });
      }
    });

    it('always needs the hash from a browser, even on a legacy project; a secret key needs none', async () => {
      const legacy = await project('free', true);
      const noHash = await t.api.as(legacy.publishableKey).get('/v1/notifications/inbox?user_id=ada').expect(403);
      expect(noHash.body.error).toMatchObject({ code: 'USER_HASH_INVALID', param: 'user_hash' });
      const wrong = await t.api
        .as(legacy.publishableKey)
        .get('/v1/notifications/inbox?user_id=ada')
        .set('X-Service-User-Hash', userHashOf('bob', SECRET));
      expect(wrong.status).toBe(403);
      const count = await t.api.as(legacy.publishableKey).get('/v1/notifications/unread/count?user_id=ada').expect(403);
      expect(count.body.error.code).toBe('USER_HASH_INVALID');
      const server = await t.api.as(legacy.secretKey).get('/v1/notifications/inbox?user_id=ada').expect(200);
      expect(server.body.meta).toEqual({ unread_count: 0, poll_interval_seconds: 60 });
      const missing = await t.api.as(legacy.secretKey).get('/v1/notifications/inbox').expect(400);
      expect(missing.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'user_id' });
      await t.api.get('/v1/notifications/inbox?user_id=ada').expect(401);
    });
  });

  describe('GET /v1/notifications/unread', () => {
    it('lists only unread notifications, per person', async () => {
      const p = await project();
      const a = await seedNotification(t, p.project.id, { title: 'A', visibleAt: ago(60_000) });
      const b = await seedNotification(t, p.project.id, { title: 'B' });
      await t.api.as(p.secretKey).patch(`/v1/notifications/${b.id}/read`).send({ user_id: 'ada' }).expect(200);
      const ada = await asUser(p, 'ada', '/v1/notifications/unread').expect(200);
      expect(ada.body.data.map((n: { id: string }) => n.id)).toEqual([a.id]);
      expect(ada.body.meta.unread_count).toBe(1);
      const bob = await asUser(p, 'bob', '/v1/notifications/unread').expect(200);
      expect(bob.body.data.map((n: { id: string }) => n.id)).toEqual([b.id, a.id]);
    });

    it('answers a legacy project without a hash, saying verification is off, with a warning', async () => {
      const legacy = await project('free', true);
      await seedNotification(t, legacy.project.id, { userId: 'ada' });
      const res = await t.api.as(legacy.publishableKey).get('/v1/notifications/unread?user_id=ada').expect(200);
      expect(res.body.data).toHaveLength(1);
      expect(res.body.meta).toMatchObject({ unread_count: 1, poll_interval_seconds: 60, identity_verification: 'off' });
      expect(res.body.meta.warnings[0]).toContain('require_user_hash');
      const strict = await project('free');
      const refused = await t.api.as(strict.publishableKey).get('/v1/notifications/unread?user_id=ada').expect(403);
      expect(refused.body.error.code).toBe('USER_HASH_INVALID');
      const hashed = await asUser(legacy, 'ada', '/v1/notifications/unread').expect(200);
      expect(hashed.body.meta.identity_verification).toBeUndefined();
    });
  });

  describe('GET /v1/notifications/unread/count', () => {
    it('counts own and broadcast notifications, minus read and archived ones, per person', async () => {
      const p = await project('builder');
      const own = await seedNotification(t, p.project.id, { userId: 'ada' });
      const bc1 = await seedNotification(t, p.project.id, { visibleAt: ago(60_000) });
      const bc2 = await seedNotification(t, p.project.id, { visibleAt: ago(120_000) });
      const count = async (user: string) => (await asUser(p, user, '/v1/notifications/unread/count').expect(200)).body;

      expect(await count('ada')).toEqual({ data: { unread_count: 3 }, error: null, meta: { poll_interval_seconds: 15 } });
      await t.api.as(p.secretKey).patch(`/v1/notifications/${bc1.id}/read`).send({ user_id: 'ada' }).expect(200);
      await t.api.as(p.secretKey).patch(`/v1/notifications/${bc2.id}/archive`).send({ user_id: 'ada' }).expect(200);
      expect((await count('ada')).data.unread_count).toBe(1);
      // A broadcast Ada read is still unread for Bob.
      expect((await count('bob')).data.unread_count).toBe(2);
      await t.api.as(p.secretKey).patch(`/v1/notifications/${own.id}/click`).send({ user_id: 'ada' }).expect(200);
      expect((await count('ada')).data.unread_count).toBe(0);
    });
  });

  describe('hourly bell read limit', () => {
    it('allows 180 reads per person per hour on Free, shared by the three reads, then 429 with Retry-After to the end of the hour', async () => {
      const p = await project('free');
      t.clock.freeze('2026-11-20T10:59:00.000Z');
      const paths = ['/v1/notifications/inbox', '/v1/notifications/unread', '/v1/notifications/unread/count'];
      for (let i = 0; i < 180; i += 1) {
        await t.api
          .as(p.secretKey)
          .get(`${paths[i % 3]}?user_id=ada`)
          .expect(200);
      }
      const limited = await t.api.as(p.secretKey).get('/v1/notifications/unread/count?user_id=ada').expect(429);
      expect(limited.body.error).toMatchObject({ code: 'RATE_LIMITED' });
      expect(limited.headers['retry-after']).toBe('60');
      await t.api.as(p.secretKey).get('/v1/notifications/inbox?user_id=ada').expect(429);
      // Another person of the same project has their own count.
      await t.api.as(p.secretKey).get('/v1/notifications/unread/count?user_id=bob').expect(200);
      // The next hour starts a new count.
      t.clock.advance(60_000);
      await t.api.as(p.secretKey).get('/v1/notifications/unread/count?user_id=ada').expect(200);
    });

    it('records the person in bell_users on the first read of each hour only', async () => {
      const p = await project('indie');
      t.clock.freeze('2026-11-20T10:10:00.000Z');
      const seen = () => t.db.manager.findOneBy(BellUserEntity, { projectId: p.project.id, userId: 'ada' });
      expect(await seen()).toBeNull();
      await asUser(p, 'ada', '/v1/notifications/unread/count').expect(200);
      expect(await seen()).toMatchObject({
        firstSeenAt: new Date('2026-11-20T10:10:00.000Z'),
        lastSeenAt: new Date('2026-11-20T10:10:00.000Z'),
      });
      t.clock.advance(30 * 60_000);
      await asUser(p, 'ada', '/v1/notifications/inbox').expect(200);
      await asUser(p, 'ada', '/v1/notifications/unread').expect(200);
      expect((await seen())?.lastSeenAt).toEqual(new Date('2026-11-20T10:10:00.000Z'));
      t.clock.advance(30 * 60_000);
      await asUser(p, 'ada', '/v1/notifications/inbox').expect(200);
      expect(await seen()).toMatchObject({
        firstSeenAt: new Date('2026-11-20T10:10:00.000Z'),
        lastSeenAt: new Date('2026-11-20T11:10:00.000Z'),
      });
      // Writes do not count as bell reads.
      expect(await t.db.manager.countBy(BellUserEntity, { projectId: p.project.id })).toBe(1);
    });
  });
});
