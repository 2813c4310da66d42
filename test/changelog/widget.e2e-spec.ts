import { ContactEntity } from '../../src/contacts/entities/contact.entity';
import { newId } from '../../src/common/ids/ids';
import { seedEntry } from '../support/changelog-seed';
import { entryCounts, flushEngagement } from '../support/engagement';
import { userHashOf } from '../support/notification-seed';
import { SeededProject, TestApp } from '../support/test-app';

const NOTHING = { widgetViews: 0, pageViews: 0, ctaClicks: 0, anonymousReaders: 0 };

describe('Changelog widget (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start({ env: { BROWSER_RATE_LIMIT: '100000' } });
  });
  afterAll(() => t.close());
  afterEach(() => t.clock.reset());

  interface Reader {
    seeded: SeededProject;
    secret: string;
    as: (userId: string) => Record<string, string>;
  }

  /** A project with a signing secret; `as(user)` gives the query of that verified user. */
  async function projectWithSecret(plan: 'free' | 'indie' | 'builder' = 'builder'): Promise<Reader> {
    const seeded = await t.seedProject({ plan });
    const res = await t.api.as(seeded.secretKey).post('/v1/notifications/signing-secret').expect(201);
    const secret = res.body.data.signing_secret as string;
    return { seeded, secret, as: (userId) => ({ user_id: userId, user_hash: userHashOf(userId, secret) }) };
  }

  async function seedContact(
    projectId: string,
    userId: string,
    details: ContactEntity['details'],
    consents: ContactEntity['consents'] = {},
  ) {
    const now = new Date();
    await t.db.manager.getRepository(ContactEntity).insert({
      id: newId('ct'),
      projectId,
      email: null,
      userId,
      stage: 'user',
      consents,
      details,
      paying: false,
      createdAt: now,
      updatedAt: now,
    });
  }

  const list = (key: string, query: Record<string, string | number | undefined> = {}) =>
    t.api.as(key).get('/v1/changelog/widget/entries').query(query);

  describe('GET /v1/changelog/widget/entries', () => {
    it('lists pinned entries apart on the first page, the rest newest first by cursor', async () => {
      const { seeded } = await projectWithSecret();
      const { project, publishableKey } = seeded;
      const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);
      const pinned = await seedEntry(t, project.id, { title: 'Pinned', pinned: true, publishedAt: at(500) });
      const newest = await seedEntry(t, project.id, { title: 'Newest', publishedAt: at(1) });
      const middle = await seedEntry(t, project.id, { title: 'Middle', publishedAt: at(2) });
      const oldest = await seedEntry(t, project.id, { title: 'Oldest', publishedAt: at(3) });
      await seedEntry(t, project.id, { title: 'Draft', status: 'draft' });

      const first = await list(publishableKey, { limit: 2 }).expect(200);
      expect(first.body.data.pinned.map((e: { id: string }) => e.id)).toEqual([pinned.id]);
      expect(first.body.data.entries.map((e: { id: string }) => e.id)).toEqual([newest.id, middle.id]);
      expect(first.body.data.next_cursor).toEqual(expect.any(String));
      expect(first.body.data.unseen_count).toBeNull();
      expect(first.body.data.reactions).toEqual(['like', 'celebrate', 'dislike']);
      expect(first.body.data.project).toEqual({
        name: project.name,
        show_badge: false,
        hosted_url: `${t.config.publicBaseUrl}/changelog/${project.slug}`,
        subscribe: { enabled: true, url: `${t.config.publicBaseUrl}/v1/changelog/subscribers` },
      });
      const entry = first.body.data.entries[0];
      expect(entry).toMatchObject({
        title: 'Newest',
        body_html: '<p>Something changed.</p>\n',
        public_url: `${t.config.publicBaseUrl}/changelog/${project.slug}/${newest.id}`,
        reactions: {},
        my_reaction: null,
        seen: null,
        cta: null,
      });

      const second = await list(publishableKey, { limit: 2, cursor: first.body.data.next_cursor }).expect(200);
      expect(second.body.data.pinned).toEqual([]);
      expect(second.body.data.entries.map((e: { id: string }) => e.id)).toEqual([oldest.id]);
      expect(second.body.data.next_cursor).toBeNull();
    });

    it('filters by q, label and category, and lists the labels in use', async () => {
      const { seeded } = await projectWithSecret();
      const { project, publishableKey } = seeded;
      const api = await seedEntry(t, project.id, { title: 'Faster API', category: 'improvement', labels: ['api'] });
      await seedEntry(t, project.id, { title: 'Dark mode', category: 'feature', labels: ['ui'] });
      await seedEntry(t, project.id, { title: 'Secret thing', audience: 'signed_in', labels: ['internal'] });
      const res = await list(publishableKey).expect(200);
      expect(res.body.data.labels.map((l: { slug: string }) => l.slug)).toEqual(['api', 'ui']);
      for (const query of [{ q: 'faster' }, { label: 'api' }, { category: 'improvement' }]) {
        const filtered = await list(publishableKey, query).expect(200);
        expect(filtered.body.data.entries.map((e: { id: string }) => e.id)).toEqual([api.id]);
      }
    });

    it('refuses a bad cursor, limit or category with VALIDATION_ERROR naming the field', async () => {
      const { seeded } = await projectWithSecret();
      for (const [query, param] of [
        [{ cursor: 'nope' }, 'cursor'],
        [{ limit: 51 }, 'limit'],
        [{ category: 'misc' }, 'category'],
        [{ client_id: 'short' }, 'client_id'],
      ] as const) {
        const res = await list(seeded.publishableKey, query).expect(400);
        expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param });
      }
    });
  });

  describe('identity and audiences', () => {
    it('answers 403 USER_HASH_INVALID for a user id without a valid hash, never anonymously', async () => {
      const { seeded, secret } = await projectWithSecret();
      for (const query of [{ user_id: 'u1' }, { user_id: 'u1', user_hash: userHashOf('u2', secret) }]) {
        const res = await list(seeded.publishableKey, query).expect(403);
        expect(res.body.error).toMatchObject({ code: 'USER_HASH_INVALID', param: 'user_hash' });
      }
      const header = await t.api
        .as(seeded.publishableKey)
        .get('/v1/changelog/widget/unseen')
        .query({ user_id: 'u1' })
        .set('X-Service-User-Hash', userHashOf('u1', secret))
        .expect(200);
      expect(header.body.data).toEqual({ unseen_count: 0 });
    });

    it('shows signed-in entries only to verified users and segment entries only to matching contacts, on every path', async () => {
      const { seeded, as } = await projectWithSecret();
      const { project, publishableKey } = seeded;
      const publicEntry = await seedEntry(t, project.id, { title: 'For all' });
      const signedIn = await seedEntry(t, project.id, { title: 'Members', audience: 'signed_in' });
      const segment = await seedEntry(t, project.id, {
        title: 'Beta plan',
        audience: 'segment',
        segment: {
          match: 'all',
          rules: [
            { type: 'detail', key: 'plan', op: 'in', value: ['pro', 'team'] },
            { type: 'consent', purpose: 'beta', status: 'granted' },
          ],
        },
        announcementStyle: 'modal',
        announcementUntil: new Date(Date.now() + 86_400_000),
      });
      await seedContact(project.id, 'matching', { plan: 'pro' }, { beta: { status: 'granted', updated_at: new Date().toISOString() } });
      await seedContact(project.id, 'other-plan', { plan: 'free' }, { beta: { status: 'granted', updated_at: new Date().toISOString() } });
      await seedContact(project.id, 'withdrawn', { plan: 'pro' }, { beta: { status: 'withdrawn', updated_at: new Date().toISOString() } });

      const idsFor = async (query: Record<string, string>) =>
        ((await list(publishableKey, query).expect(200)).body.data.entries as { id: string }[]).map((e) => e.id).sort();
      expect(await idsFor({})).toEqual([publicEntry.id]);
      expect(await idsFor({ client_id: 'browser-123456' })).toEqual([publicEntry.id]);
      expect(await idsFor(as('no-contact'))).toEqual([publicEntry.id, signedIn.id].sort());
      expect(await idsFor(as('other-plan'))).toEqual([publicEntry.id, signedIn.id].sort());
      expect(await idsFor(as('withdrawn'))).toEqual([publicEntry.id, signedIn.id].sort());
      expect(await idsFor(as('matching'))).toEqual([publicEntry.id, signedIn.id, segment.id].sort());

      // The segment entry's announcement reaches the matching user only.
      const announced = async (query: Record<string, string>) =>
        (await t.api.as(publishableKey).get('/v1/changelog/widget/announcement').query(query).expect(200)).body.data.announcement;
      expect(await announced({})).toBeNull();
      expect(await announced(as('other-plan'))).toBeNull();
      expect((await announced(as('matching'))).entry.id).toBe(segment.id);
      const matchingList = (await list(publishableKey, as('matching')).expect(200)).body.data;
      expect(matchingList.announcement.entry.id).toBe(segment.id);
      expect(matchingList.announcement.entry.public_url).toBeNull();

      // Nothing else shows them: seen, click and reactions skip or refuse them for others.
      const seen = await t.api
        .as(publishableKey)
        .post('/v1/changelog/widget/seen')
        .send({ entry_ids: [publicEntry.id, signedIn.id, segment.id], client_id: 'browser-123456' })
        .expect(200);
      expect(seen.body.data).toEqual({ recorded: 1 });
      await t.api.as(publishableKey).post(`/v1/changelog/widget/entries/${segment.id}/click`).query(as('other-plan')).expect(404);
      await t.api
        .as(publishableKey)
        .post(`/v1/changelog/widget/entries/${signedIn.id}/reactions`)
        .send({ reaction: 'like', client_id: 'browser-123456' })
        .expect(404);
      const unseen = await t.api.as(publishableKey).get('/v1/changelog/widget/unseen').expect(200);
      expect(unseen.body.data).toEqual({ unseen_count: 1 });

      // Public surfaces: JSON, feeds, the hosted page, the publishable list.
      const json = await t.api.get(`/public/changelog/${project.slug}`).expect(200);
      expect(json.body.data.map((e: { id: string }) => e.id)).toEqual([publicEntry.id]);
      for (const path of ['rss.xml', 'atom.xml', 'feed.json']) {
        const feed = await t.api.get(`/public/changelog/${project.slug}/${path}`).expect(200);
        expect(feed.text).not.toContain('Beta plan');
        expect(feed.text).not.toContain('Members');
      }
      const page = await t.api.get(`/changelog/${project.slug}`).expect(200);
      expect(page.text).not.toContain('Beta plan');
      await t.api.get(`/changelog/${project.slug}/${segment.id}`).expect(404);
      const listed = await t.api.as(publishableKey).get('/v1/changelog/entries').expect(200);
      expect(listed.body.data.map((e: { id: string }) => e.id)).toEqual([publicEntry.id]);
    });
  });

  describe('seen, unseen and announcements', () => {
    it('counts views, makes entries seen on every device and never re-announces to that person', async () => {
      const { seeded, as } = await projectWithSecret();
      const { project, publishableKey } = seeded;
      const older = await seedEntry(t, project.id, { title: 'Older', publishedAt: new Date(Date.now() - 3_600_000) });
      const announced = await seedEntry(t, project.id, {
        title: 'Big launch',
        announcementStyle: 'banner',
        announcementUntil: new Date(Date.now() + 86_400_000),
      });
      const before = (await list(publishableKey, as('ana')).expect(200)).body.data;
      expect(before.unseen_count).toBe(2);
      expect(before.announcement).toMatchObject({
        style: 'banner',
        once_key: `ann_${announced.id}`,
        entry: { id: announced.id, seen: false },
      });

      await t.api
        .as(publishableKey)
        .post('/v1/changelog/widget/seen')
        .send({ entry_ids: [announced.id], ...as('ana') })
        .expect(200);
      // Before the flush this process already knows; after it, every process does.
      const pending = (await list(publishableKey, as('ana')).expect(200)).body.data;
      expect(pending.unseen_count).toBe(1);
      expect(pending.announcement).toBeNull();
      await flushEngagement(t);
      const other = await t.api.as(publishableKey).get('/v1/changelog/widget/announcement').query(as('ana')).expect(200);
      expect(other.body.data).toEqual({ announcement: null });
      const unseen = await t.api.as(publishableKey).get('/v1/changelog/widget/unseen').query(as('ana')).expect(200);
      expect(unseen.body.data).toEqual({ unseen_count: 1 });
      const after = (await list(publishableKey, as('ana')).expect(200)).body.data;
      expect(after.entries.map((e: { id: string; seen: boolean }) => [e.id, e.seen])).toEqual([
        [announced.id, true],
        [older.id, false],
      ]);
      // Someone else still gets it; an anonymous browser gets the stable once key.
      expect((await list(publishableKey, as('ben')).expect(200)).body.data.announcement.entry.id).toBe(announced.id);
      const anonymous = await t.api.as(publishableKey).get('/v1/changelog/widget/announcement').expect(200);
      expect(anonymous.body.data.announcement.once_key).toBe(`ann_${announced.id}`);
      expect(await entryCounts(t, announced.id)).toEqual({ ...NOTHING, widgetViews: 1 });
      const readers = await t.db.manager.query('SELECT user_id FROM changelog_readers WHERE entry_id = $1', [announced.id]);
      expect(readers).toEqual([{ user_id: 'ana' }]);
    });

    it('ends an announcement at until, on archive, and when another entry replaces it', async () => {
      const { seeded } = await projectWithSecret('indie');
      const { project, publishableKey, secretKey } = seeded;
      const announced = async () =>
        (await t.api.as(publishableKey).get('/v1/changelog/widget/announcement').expect(200)).body.data.announcement as {
          entry: { id: string };
          style: string;
          until: string;
        } | null;
      const first = await seedEntry(t, project.id);
      const second = await seedEntry(t, project.id);
      const until = new Date(Date.now() + 3_600_000).toISOString();
      await t.api
        .as(secretKey)
        .patch(`/v1/changelog/entries/${first.id}`)
        .send({ announcement: { style: 'toast', until } })
        .expect(200);
      expect(await announced()).toMatchObject({ entry: { id: first.id }, style: 'toast', until });

      const replaced = await t.api
        .as(secretKey)
        .patch(`/v1/changelog/entries/${second.id}`)
        .send({ announcement: { style: 'modal', until } })
        .expect(200);
      expect(replaced.body.meta.announcement_replaced_entry_id).toBe(first.id);
      expect(await announced()).toMatchObject({ entry: { id: second.id }, style: 'modal' });

      t.clock.freeze(new Date(Date.now() + 3_600_001));
      expect(await announced()).toBeNull();
      t.clock.reset();
      expect((await announced())?.entry.id).toBe(second.id);
      await t.api.as(secretKey).post(`/v1/changelog/entries/${second.id}/archive`).expect(200);
      expect(await announced()).toBeNull();
    });

    it('counts anonymous first reads and answers unseen since a time', async () => {
      const { seeded } = await projectWithSecret();
      const { project, publishableKey } = seeded;
      const old = await seedEntry(t, project.id, { publishedAt: new Date(Date.now() - 7_200_000) });
      const fresh = await seedEntry(t, project.id, { publishedAt: new Date(Date.now() - 60_000) });
      const since = new Date(Date.now() - 3_600_000).toISOString();
      const unseen = await t.api.as(publishableKey).get('/v1/changelog/widget/unseen').query({ since }).expect(200);
      expect(unseen.body.data).toEqual({ unseen_count: 1 });
      await t.api
        .as(publishableKey)
        .post('/v1/changelog/widget/seen')
        .send({ entry_ids: [old.id, fresh.id], first_time_ids: [fresh.id] })
        .expect(200);
      expect(await entryCounts(t, fresh.id)).toEqual({ ...NOTHING, widgetViews: 1, anonymousReaders: 1 });
      expect(await entryCounts(t, old.id)).toEqual({ ...NOTHING, widgetViews: 1 });
      const bad = await t.api.as(publishableKey).get('/v1/changelog/widget/unseen').query({ since: 'yesterday' }).expect(400);
      expect(bad.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'since' });
    });

    it('writes counts with a statement per flush, not per request', async () => {
      const { seeded } = await projectWithSecret();
      const entry = await seedEntry(t, seeded.project.id);
      await flushEngagement(t);
      const query = jest.spyOn(t.db.manager, 'query');
      try {
        await Promise.all(
          Array.from({ length: 20 }, () =>
            t.api
              .as(seeded.publishableKey)
              .post('/v1/changelog/widget/seen')
              .send({ entry_ids: [entry.id] })
              .expect(200),
          ),
        );
        expect(await entryCounts(t, entry.id)).toEqual({ ...NOTHING, widgetViews: 20 });
        const counterWrites = query.mock.calls.filter(([sql]) => String(sql).includes('INSERT INTO changelog_entry_counts'));
        // The final flush, and at most one timer flush while the requests ran: never one per request.
        expect(counterWrites.length).toBeGreaterThanOrEqual(1);
        expect(counterWrites.length).toBeLessThanOrEqual(2);
      } finally {
        query.mockRestore();
      }
    });
  });

  describe('clicks and reactions', () => {
    it('counts a button click of a visible entry and refuses others with NOT_FOUND', async () => {
      const { seeded } = await projectWithSecret();
      const entry = await seedEntry(t, seeded.project.id, { ctaLabel: 'Try', ctaUrl: '/try' });
      const res = await t.api.as(seeded.publishableKey).post(`/v1/changelog/widget/entries/${entry.id}/click`).expect(200);
      expect(res.body.data).toEqual({ recorded: 1 });
      expect(await entryCounts(t, entry.id)).toEqual({ ...NOTHING, ctaClicks: 1 });
      for (const id of ['ce_00000000000000000000000000', 'nope']) {
        const missing = await t.api.as(seeded.publishableKey).post(`/v1/changelog/widget/entries/${id}/click`).expect(404);
        expect(missing.body.error).toMatchObject({ code: 'NOT_FOUND', param: 'id' });
      }
    });

    it('keeps one reaction per person, replacing the old one, and counts people', async () => {
      const { seeded, as } = await projectWithSecret();
      const { project, publishableKey } = seeded;
      const entry = await seedEntry(t, project.id);
      const react = (body: Record<string, string>) =>
        t.api.as(publishableKey).post(`/v1/changelog/widget/entries/${entry.id}/reactions`).send(body);
      expect((await react({ reaction: 'like', ...as('ana') }).expect(200)).body.data).toEqual({
        entry_id: entry.id,
        reactions: { like: 1 },
        my_reaction: 'like',
      });
      await react({ reaction: 'like', client_id: 'browser-123456' }).expect(200);
      await react({ reaction: 'like', ...as('ana') }).expect(200);
      expect((await react({ reaction: 'celebrate', ...as('ana') }).expect(200)).body.data).toEqual({
        entry_id: entry.id,
        reactions: { like: 1, celebrate: 1 },
        my_reaction: 'celebrate',
      });
      const listed = (await list(publishableKey, { client_id: 'browser-123456' }).expect(200)).body.data.entries[0];
      expect(listed).toMatchObject({ reactions: { like: 1, celebrate: 1 }, my_reaction: 'like' });

      // Taking back one the person does not hold changes nothing; the held one goes.
      const keep = await t.api
        .as(publishableKey)
        .delete(`/v1/changelog/widget/entries/${entry.id}/reactions`)
        .send({ reaction: 'like', ...as('ana') })
        .expect(200);
      expect(keep.body.data).toEqual({ entry_id: entry.id, reactions: { like: 1, celebrate: 1 }, my_reaction: 'celebrate' });
      const gone = await t.api
        .as(publishableKey)
        .delete(`/v1/changelog/widget/entries/${entry.id}/reactions`)
        .send({ reaction: 'celebrate', ...as('ana') })
        .expect(200);
      expect(gone.body.data).toEqual({ entry_id: entry.id, reactions: { like: 1 }, my_reaction: null });
    });

    it('counts one reaction when one person taps twice at once', async () => {
      const { seeded } = await projectWithSecret();
      const entry = await seedEntry(t, seeded.project.id);
      await Promise.all(
        ['like', 'celebrate', 'dislike', 'like'].map((reaction) =>
          t.api
            .as(seeded.publishableKey)
            .post(`/v1/changelog/widget/entries/${entry.id}/reactions`)
            .send({ reaction, client_id: 'browser-racing' })
            .expect(200),
        ),
      );
      const counts: { total: number }[] = await t.db.manager.query(
        'SELECT sum(count)::int AS total FROM changelog_reaction_counts WHERE entry_id = $1',
        [entry.id],
      );
      expect(counts).toEqual([{ total: 1 }]);
    });

    it('takes only names of the reaction set, refuses everything when it is empty, and needs a person', async () => {
      const { seeded } = await projectWithSecret();
      const entry = await seedEntry(t, seeded.project.id);
      const react = (body: Record<string, string>) =>
        t.api.as(seeded.publishableKey).post(`/v1/changelog/widget/entries/${entry.id}/reactions`).send(body);
      expect((await react({ reaction: 'fire', client_id: 'browser-123456' }).expect(400)).body.error).toMatchObject({
        code: 'VALIDATION_ERROR',
        param: 'reaction',
      });
      expect((await react({ reaction: 'like' }).expect(400)).body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'client_id' });
      await t.api.as(seeded.secretKey).patch('/v1/changelog/settings').send({ reaction_set: [] }).expect(200);
      const off = await react({ reaction: 'like', client_id: 'browser-123456' }).expect(400);
      expect(off.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'reaction' });
      expect(off.body.error.remediation).toContain('reaction_set');
      expect((await list(seeded.publishableKey).expect(200)).body.data.reactions).toEqual([]);
    });
  });

  it('is open to any origin with the publishable key', async () => {
    const preflight = await t.api
      .options('/v1/changelog/widget/entries')
      .set('Origin', 'https://customer.example')
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', 'authorization,x-service-user-hash');
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
  });
});
