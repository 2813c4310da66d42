import { NotificationEntity } from '../../src/notifications/entities/notification.entity';
import { ChangelogMailingEntity } from '../../src/changelog/entities/changelog-mailing.entity';
import { EventEntity } from '../../src/events/entities/event.entity';
import { SeededProject, TestApp } from '../support/test-app';

const BASE = { title: 'Export to PDF', body_markdown: 'You can now **export** reports.', category: 'feature' };
const IN_AN_HOUR = () => new Date(Date.now() + 3_600_000).toISOString();

describe('changelog entry lifecycle', () => {
  let t: TestApp;
  let seeded: SeededProject;

  beforeAll(async () => {
    // Workers off: scheduled rows stay put; this file is about the requests themselves.
    t = await TestApp.start({ env: { WORKERS: 'off' } });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    seeded = await t.seedProject({ plan: 'indie' });
  });

  const api = (key = seeded.secretKey) => t.api.as(key);
  const create = (body: Record<string, unknown> = {}, key = seeded.secretKey) =>
    api(key)
      .post('/v1/changelog/entries')
      .send({ ...BASE, ...body })
      .expect(201);
  const patch = (id: string, body: Record<string, unknown>, key = seeded.secretKey) =>
    api(key).patch(`/v1/changelog/entries/${id}`).send(body);
  const events = (entryId: string) =>
    t.db.manager
      .createQueryBuilder(EventEntity, 'e')
      .where("e.type = 'changelog.entry.published'")
      .andWhere(`e.data ->> 'entry_id' = :entryId`, { entryId })
      .getMany();

  describe('PATCH /v1/changelog/entries/{id}', () => {
    it('edits a draft and publishes it with status "published", once', async () => {
      const draft = (await create({ status: 'draft' })).body.data;
      const edited = await patch(draft.id, { title: 'Export to PDF and CSV', version: '2.5.0' }).expect(200);
      expect(edited.body.data).toMatchObject({ status: 'draft', title: 'Export to PDF and CSV', version: '2.5.0', published_at: null });
      expect(await events(draft.id)).toHaveLength(0);
      const published = await patch(draft.id, { status: 'published' }).expect(200);
      expect(published.body.data).toMatchObject({ status: 'published', published_at: expect.any(String), scheduled_at: null });
      await patch(draft.id, { status: 'published' }).expect(200);
      expect(await events(draft.id)).toHaveLength(1);
    });

    it('schedules, reschedules and unschedules a draft', async () => {
      const draft = (await create({ status: 'draft' })).body.data;
      const at = IN_AN_HOUR();
      expect((await patch(draft.id, { scheduled_at: at }).expect(200)).body.data).toMatchObject({ status: 'scheduled', scheduled_at: at });
      const later = new Date(Date.now() + 7_200_000).toISOString();
      expect((await patch(draft.id, { scheduled_at: later }).expect(200)).body.data).toMatchObject({
        status: 'scheduled',
        scheduled_at: later,
      });
      expect((await patch(draft.id, { scheduled_at: null }).expect(200)).body.data).toMatchObject({ status: 'draft', scheduled_at: null });
      const past = await patch(draft.id, { scheduled_at: '2020-01-01T00:00:00Z' }).expect(400);
      expect(past.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'scheduled_at' });
    });

    it('publishes a scheduled entry now with status "published"', async () => {
      const scheduled = (await create({ scheduled_at: IN_AN_HOUR() })).body.data;
      const res = await patch(scheduled.id, { status: 'published' }).expect(200);
      expect(res.body.data).toMatchObject({ status: 'published', scheduled_at: null });
      expect(await events(scheduled.id)).toHaveLength(1);
    });

    it('refuses other status values and status with a scheduled_at', async () => {
      const draft = (await create({ status: 'draft' })).body.data;
      for (const status of ['draft', 'scheduled', 'archived']) {
        expect((await patch(draft.id, { status }).expect(400)).body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'status' });
      }
      const both = await patch(draft.id, { status: 'published', scheduled_at: IN_AN_HOUR() }).expect(400);
      expect(both.body.error.param).toBe('status');
      expect((await patch(draft.id, { title: null }).expect(400)).body.error.param).toBe('title');
    });

    it('lets a published entry change only labels, pinned, expires_at and announcement', async () => {
      await api().post('/v1/changelog/labels').send({ name: 'API' }).expect(201);
      const entry = (await create({ version: '1.0' })).body.data;
      const shown = await patch(entry.id, {
        labels: ['api'],
        pinned: true,
        expires_at: '2099-01-01T00:00:00Z',
        announcement: { style: 'banner', until: '2099-01-01T00:00:00Z' },
      }).expect(200);
      expect(shown.body.data).toMatchObject({ status: 'published', title: entry.title });
      expect(shown.body.meta.entry_options).toMatchObject({ labels: ['api'], pinned: true, announcement: { style: 'banner' } });
      // The same values sent back are not a change.
      await patch(entry.id, { title: entry.title, body_markdown: entry.body_markdown, version: '1.0', category: 'feature' }).expect(200);
      for (const [field, value] of [
        ['title', 'New title'],
        ['body_markdown', 'New body'],
        ['version', '1.1'],
        ['category', 'fix'],
        ['audience', 'signed_in'],
        ['cover_image_url', 'https://cdn.example.com/a.png'],
        ['notify_chat', false],
        ['scheduled_at', IN_AN_HOUR()],
      ] as const) {
        const res = await patch(entry.id, { [field]: value }).expect(409);
        expect(res.body).toMatchObject({ data: null, error: { code: 'CANNOT_EDIT_PUBLISHED', param: field } });
      }
      const after = await api().get(`/v1/changelog/entries/${entry.id}`).expect(200);
      expect(after.body.data).toMatchObject({ title: entry.title, version: '1.0', category: 'feature' });
    });

    it('checks the CTA pair on the merged entry', async () => {
      const draft = (await create({ status: 'draft', cta_label: 'Try', cta_url: '/a' })).body.data;
      await patch(draft.id, { cta_label: 'Try it now' }).expect(200);
      // The label stays, so the URL is what is missing.
      expect((await patch(draft.id, { cta_url: null }).expect(400)).body.error.param).toBe('cta_url');
      const cleared = await patch(draft.id, { cta_url: null, cta_label: null }).expect(200);
      expect(cleared.body.meta.entry_options).toMatchObject({ cta_label: null, cta_url: null });
    });

    it('answers NOT_FOUND for another project, and refuses a publishable key', async () => {
      const entry = (await create()).body.data;
      const other = await t.seedProject();
      expect((await patch(entry.id, { pinned: true }, other.secretKey).expect(404)).body.error.code).toBe('NOT_FOUND');
      await patch(entry.id, { pinned: true }, seeded.publishableKey).expect(403);
    });
  });

  describe('archive and unarchive', () => {
    it('archives from any status, ends the announcement and makes the entry read-only', async () => {
      const entry = (await create({ announcement: { style: 'modal', until: '2099-01-01T00:00:00Z' } })).body.data;
      const archived = await api().post(`/v1/changelog/entries/${entry.id}/archive`).expect(200);
      expect(archived.body.data.status).toBe('archived');
      expect(archived.body.meta.entry_options.announcement).toBeNull();
      expect((await api().post(`/v1/changelog/entries/${entry.id}/archive`).expect(200)).body.data.status).toBe('archived');
      const edit = await patch(entry.id, { pinned: true }).expect(409);
      expect(edit.body.error.code).toBe('ENTRY_ARCHIVED');
      expect((await api(seeded.publishableKey).get('/v1/changelog/entries').expect(200)).body.data).toEqual([]);
      const back = await api().post(`/v1/changelog/entries/${entry.id}/unarchive`).expect(200);
      expect(back.body.data).toMatchObject({ status: 'published', published_at: entry.published_at });
      expect(back.body.meta.entry_options.announcement).toBeNull();
      expect(await events(entry.id)).toHaveLength(1);
    });

    it('returns drafts and future schedules to their status', async () => {
      const draft = (await create({ status: 'draft' })).body.data;
      await api().post(`/v1/changelog/entries/${draft.id}/archive`).expect(200);
      expect((await api().post(`/v1/changelog/entries/${draft.id}/unarchive`).expect(200)).body.data.status).toBe('draft');
      const at = IN_AN_HOUR();
      const scheduled = (await create({ scheduled_at: at })).body.data;
      await api().post(`/v1/changelog/entries/${scheduled.id}/archive`).expect(200);
      const back = await api().post(`/v1/changelog/entries/${scheduled.id}/unarchive`).expect(200);
      expect(back.body.data).toMatchObject({ status: 'scheduled', scheduled_at: at });
    });

    it('publishes at once a schedule whose time passed while archived', async () => {
      const scheduled = (await create({ scheduled_at: IN_AN_HOUR() })).body.data;
      await api().post(`/v1/changelog/entries/${scheduled.id}/archive`).expect(200);
      t.clock.advance(2 * 3_600_000);
      try {
        const back = await api().post(`/v1/changelog/entries/${scheduled.id}/unarchive`).expect(200);
        expect(back.body.data.status).toBe('published');
        expect(Date.parse(back.body.data.published_at)).toBeGreaterThan(Date.parse(scheduled.scheduled_at));
        expect(await events(scheduled.id)).toHaveLength(1);
      } finally {
        t.clock.reset();
      }
    });

    it('answers NOT_FOUND for another project', async () => {
      const entry = (await create()).body.data;
      const other = await t.seedProject();
      await api(other.secretKey).post(`/v1/changelog/entries/${entry.id}/archive`).expect(404);
      await api(other.secretKey).post(`/v1/changelog/entries/${entry.id}/unarchive`).expect(404);
    });
  });

  describe('publish side effects', () => {
    it('records changelog.entry.published with exactly the catalog fields', async () => {
      await api().post('/v1/changelog/labels').send({ name: 'API' }).expect(201);
      const entry = (
        await create({ labels: ['api'], version: '2.0', cover_image_url: 'https://cdn.example.com/c.png', cta_label: 'Go', cta_url: '/go' })
      ).body.data;
      const [event] = await events(entry.id);
      expect(event.projectId).toBe(seeded.project.id);
      expect(event.data).toEqual({
        entry_id: entry.id,
        title: entry.title,
        body_markdown: entry.body_markdown,
        version: '2.0',
        category: 'feature',
        published_at: entry.published_at,
        public_url: entry.public_url,
        audience: 'public',
        labels: ['api'],
        cover_image_url: 'https://cdn.example.com/c.png',
        cta_label: 'Go',
        cta_url: '/go',
      });
    });

    it('makes one bell broadcast: with the link for public, without for signed-in, never for segment', async () => {
      const builder = await t.seedProject({ plan: 'builder' });
      const pub = (await create({ notify_in_app: true })).body.data;
      const signedIn = (await create({ notify_in_app: true, audience: 'signed_in' })).body.data;
      const segment = (
        await create(
          { notify_in_app: true, audience: 'segment', segment: { match: 'all', rules: [{ type: 'consent', purpose: 'news' }] } },
          builder.secretKey,
        )
      ).body.data;
      const quiet = (await create({})).body.data;
      const bell = (entryId: string) => t.db.manager.findOneBy(NotificationEntity, { changelogEntryId: entryId });
      expect(await bell(pub.id)).toMatchObject({
        projectId: seeded.project.id,
        kind: 'broadcast',
        title: pub.title,
        actionUrl: pub.public_url,
        category: 'changelog',
        status: 'visible',
        visibleAt: new Date(pub.published_at),
        usageMonth: null,
        data: { changelog_entry_id: pub.id },
      });
      expect(await bell(signedIn.id)).toMatchObject({ actionUrl: null, kind: 'broadcast' });
      expect(await bell(segment.id)).toBeNull();
      expect(await bell(quiet.id)).toBeNull();
    });

    it('queues subscriber emails for public entries only, once', async () => {
      const pub = (await create({ notify_subscribers: true, status: 'draft' })).body.data;
      const signedIn = (await create({ notify_subscribers: true, audience: 'signed_in' })).body.data;
      const mailings = (entryId: string) => t.db.manager.countBy(ChangelogMailingEntity, { entryId });
      expect(await mailings(pub.id)).toBe(0);
      await patch(pub.id, { status: 'published' }).expect(200);
      await api().post(`/v1/changelog/entries/${pub.id}/archive`).expect(200);
      await api().post(`/v1/changelog/entries/${pub.id}/unarchive`).expect(200);
      expect(await mailings(pub.id)).toBe(1);
      expect(await mailings(signedIn.id)).toBe(0);
    });

    it('stores notify_chat for the webhooks', async () => {
      const entry = await create({ notify_chat: false });
      expect(entry.body.meta.entry_options.notify_chat).toBe(false);
    });
  });

  describe('Free plan cap', () => {
    it('lets exactly 5 of 30 concurrent publishes through after 20, and counts down in setup-check', async () => {
      const free = await t.seedProject({ plan: 'free' });
      const remaining = async () =>
        (await api(free.secretKey).get('/v1/setup-check').expect(200)).body.data.limits.changelog_entries_remaining;
      expect(await remaining()).toBe(25);
      for (let i = 0; i < 18; i += 1) await create({ title: `Entry ${i}` }, free.secretKey);
      await create({ scheduled_at: IN_AN_HOUR() }, free.secretKey);
      await create({ scheduled_at: IN_AN_HOUR() }, free.secretKey);
      await create({ status: 'draft' }, free.secretKey);
      expect(await remaining()).toBe(5);
      const results = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          api(free.secretKey)
            .post('/v1/changelog/entries')
            .send({ ...BASE, title: `Race ${i}` }),
        ),
      );
      const statuses = results.map((res) => res.status);
      expect(statuses.filter((status) => status === 201)).toHaveLength(5);
      expect(statuses.filter((status) => status === 403)).toHaveLength(25);
      const refused = results.find((res) => res.status === 403);
      expect(refused?.body.error).toMatchObject({ code: 'PLAN_LIMIT_REACHED' });
      expect(await remaining()).toBe(0);
      const count = await t.db.manager.query(
        "SELECT COUNT(*)::int AS n FROM changelog_entries WHERE project_id = $1 AND status IN ('published', 'scheduled')",
        [free.project.id],
      );
      expect(count[0].n).toBe(25);
    });

    it('keeps drafts free and frees a place on archive and delete', async () => {
      const free = await t.seedProject({ plan: 'free' });
      const ids: string[] = [];
      for (let i = 0; i < 25; i += 1) ids.push((await create({ title: `E${i}` }, free.secretKey)).body.data.id);
      expect((await api(free.secretKey).post('/v1/changelog/entries').send(BASE).expect(403)).body.error.code).toBe('PLAN_LIMIT_REACHED');
      const draft = (await create({ status: 'draft' }, free.secretKey)).body.data;
      expect((await patch(draft.id, { status: 'published' }, free.secretKey).expect(403)).body.error.code).toBe('PLAN_LIMIT_REACHED');
      expect((await patch(draft.id, { scheduled_at: IN_AN_HOUR() }, free.secretKey).expect(403)).body.error.code).toBe(
        'PLAN_LIMIT_REACHED',
      );
      await api(free.secretKey).post(`/v1/changelog/entries/${ids[0]}/archive`).expect(200);
      await patch(draft.id, { status: 'published' }, free.secretKey).expect(200);
      expect((await api(free.secretKey).post(`/v1/changelog/entries/${ids[0]}/unarchive`).expect(403)).body.error.code).toBe(
        'PLAN_LIMIT_REACHED',
      );
      await api(free.secretKey).delete(`/v1/changelog/entries/${ids[1]}`).expect(200);
      await api(free.secretKey).post(`/v1/changelog/entries/${ids[0]}/unarchive`).expect(200);
    });
  });

  describe('feedback on entries', () => {
    it('keeps a published entry id, drops a draft or another project’s, and lists by entry', async () => {
      const entry = (await create()).body.data;
      const draft = (await create({ status: 'draft' })).body.data;
      const other = await t.seedProject();
      const foreign = (await create({}, other.secretKey)).body.data;
      const send = (changelog_entry_id: string) =>
        api(seeded.publishableKey)
          .post('/v1/feedback')
          .send({ feedback_text: 'Love the new export button!', changelog_entry_id })
          .expect(201);
      expect((await send(entry.id)).body.data.changelog_entry_id).toBe(entry.id);
      expect((await send(draft.id)).body.data.changelog_entry_id).toBeNull();
      expect((await send(foreign.id)).body.data.changelog_entry_id).toBeNull();
      const listed = await api().get(`/v1/feedback?changelog_entry_id=${entry.id}`).expect(200);
      expect(listed.body.data).toHaveLength(1);
      expect(listed.body.data[0]).toMatchObject({ changelog_entry_id: entry.id });
    });
  });
});
