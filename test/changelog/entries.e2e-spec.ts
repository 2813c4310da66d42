import { SeededProject, TestApp } from '../support/test-app';

const ENTRY_ID = /^ce_[0-9A-HJKMNP-TV-Z]{26}$/;
const OWNER_FIELDS = [
  'body_markdown',
  'category',
  'created_at',
  'id',
  'project_id',
  'public_url',
  'published_at',
  'scheduled_at',
  'status',
  'title',
  'updated_at',
  'version',
];
const BASE = { title: 'Export to PDF', body_markdown: 'You can now **export** reports.', category: 'feature' };

describe('changelog entries', () => {
  let t: TestApp;
  let seeded: SeededProject;

  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    seeded = await t.seedProject({ plan: 'builder' });
  });

  const api = (key = seeded.secretKey) => t.api.as(key);
  const create = (body: Record<string, unknown>, key = seeded.secretKey) =>
    api(key)
      .post('/v1/changelog/entries')
      .send({ ...BASE, ...body });
  const countEntries = async (projectId: string) =>
    Number((await t.db.manager.query('SELECT count(*) AS n FROM changelog_entries WHERE project_id = $1', [projectId]))[0].n);
  const label = (slug: string) => api().post('/v1/changelog/labels').send({ name: slug, slug }).expect(201);

  describe('POST /v1/changelog/entries', () => {
    it('publishes by default and answers exactly the owner view, with the options in meta', async () => {
      await label('export');
      const res = await create({ version: ' 2.4.0 ', labels: ['export'], cta_label: 'Try it', cta_url: '/reports' }).expect(201);
      expect(Object.keys(res.body.data).sort()).toEqual(OWNER_FIELDS);
      const now = t.clock.now().toISOString().slice(0, 15);
      expect(res.body.data).toMatchObject({
        id: expect.stringMatching(ENTRY_ID),
        project_id: seeded.project.id,
        title: 'Export to PDF',
        body_markdown: BASE.body_markdown,
        version: '2.4.0',
        category: 'feature',
        status: 'published',
        scheduled_at: null,
        published_at: expect.stringContaining(now),
        public_url: `https://launch.test/changelog/${seeded.project.slug}/${res.body.data.id}`,
      });
      expect(res.body.meta).toEqual({
        entry_options: {
          labels: ['export'],
          audience: 'public',
          segment: null,
          pinned: false,
          expires_at: null,
          announcement: null,
          cover_image_url: null,
          cta_label: 'Try it',
          cta_url: '/reports',
          notify_subscribers: false,
          notify_in_app: false,
          notify_chat: true,
        },
      });
    });

    it('creates a draft with status "draft" and a scheduled entry with scheduled_at', async () => {
      const draft = await create({ status: 'draft' }).expect(201);
      expect(draft.body.data).toMatchObject({ status: 'draft', published_at: null, scheduled_at: null });
      const at = new Date(Date.now() + 3_600_000).toISOString();
      const scheduled = await create({ scheduled_at: at }).expect(201);
      expect(scheduled.body.data).toMatchObject({ status: 'scheduled', published_at: null, scheduled_at: at });
    });

    it('replays an Idempotency-Key without creating a second entry', async () => {
      const first = await create({ title: 'Once' }).set('Idempotency-Key', 'entry-once').expect(201);
      const again = await create({ title: 'Once' }).set('Idempotency-Key', 'entry-once').expect(201);
      expect(again.body.data.id).toBe(first.body.data.id);
      const list = await api().get('/v1/changelog/entries').expect(200);
      expect(list.body.data.filter((entry: { title: string }) => entry.title === 'Once')).toHaveLength(1);
    });

    it('refuses a publishable key and a missing key', async () => {
      const res = await create({}, seeded.publishableKey).expect(403);
      expect(res.body.error.code).toBe('KEY_INSUFFICIENT_PERMISSIONS');
      await t.api.post('/v1/changelog/entries').send(BASE).expect(401);
    });

    it.each([
      ['a missing title', { title: undefined }, 'title'],
      ['a blank title', { title: '   ' }, 'title'],
      ['a title of 201 characters', { title: 'x'.repeat(201) }, 'title'],
      ['a body over 50000 characters', { body_markdown: 'x'.repeat(50_001) }, 'body_markdown'],
      ['an unknown category', { category: 'news' }, 'category'],
      ['a version of 65 characters', { version: 'v'.repeat(65) }, 'version'],
      ['status "published"', { status: 'published' }, 'status'],
      ['a draft with scheduled_at', { status: 'draft', scheduled_at: '2099-01-01T00:00:00Z' }, 'status'],
      ['scheduled_at in the past', { scheduled_at: '2020-01-01T00:00:00Z' }, 'scheduled_at'],
      ['scheduled_at that is no date', { scheduled_at: 'tomorrow' }, 'scheduled_at'],
      ['an http cover image', { cover_image_url: 'http://cdn.example.com/a.png' }, 'cover_image_url'],
      ['a data: cover image', { cover_image_url: 'data:image/png;base64,AAAA' }, 'cover_image_url'],
      ['cta_label alone', { cta_label: 'Try it' }, 'cta_url'],
      ['cta_url alone', { cta_url: '/pricing' }, 'cta_label'],
      ['a cta_url naming another host without scheme', { cta_label: 'Go', cta_url: '//evil.example.com' }, 'cta_url'],
      ['a javascript: cta_url', { cta_label: 'Go', cta_url: 'javascript:alert(1)' }, 'cta_url'],
      ['a cta_label of 81 characters', { cta_label: 'x'.repeat(81), cta_url: '/a' }, 'cta_label'],
      ['an unknown label', { labels: ['nope'] }, 'labels'],
      ['an unknown audience', { audience: 'everyone' }, 'audience'],
      ['audience segment without a segment', { audience: 'segment' }, 'segment'],
      ['a segment without audience segment', { segment: { match: 'all', rules: [{ type: 'consent', purpose: 'news' }] } }, 'segment'],
      [
        'a segment rule with a bad op',
        {
          audience: 'segment',
          segment: {
            match: 'all',
            rules: [
              { type: 'consent', purpose: 'a' },
              { type: 'consent', purpose: 'b' },
              { type: 'consent', purpose: 'c' },
              { type: 'detail', key: 'plan', op: 'gt', value: '1' },
            ],
          },
        },
        'segment.rules[3].op',
      ],
      [
        '11 segment rules',
        { audience: 'segment', segment: { match: 'all', rules: Array(11).fill({ type: 'consent', purpose: 'a' }) } },
        'segment.rules',
      ],
      ['an announcement style', { announcement: { style: 'popup', until: '2099-01-01T00:00:00Z' } }, 'announcement.style'],
      ['an announcement in the past', { announcement: { style: 'banner', until: '2020-01-01T00:00:00Z' } }, 'announcement.until'],
      ['a pinned that is no boolean', { pinned: 'yes' }, 'pinned'],
      ['an unknown field', { colour: 'red' }, 'colour'],
    ])('refuses %s', async (_what, body, param) => {
      const res = await create(body).expect(400);
      expect(res.body).toMatchObject({ data: null, error: { code: 'VALIDATION_ERROR', param } });
      expect(res.body.error.remediation).toEqual(expect.any(String));
      const list = await api().get('/v1/changelog/entries').expect(200);
      expect(list.body.data).toEqual([]);
    });

    it.each([
      ['a javascript: link', 'Click [here](javascript:alert(1)).', 'javascript:alert(1)'],
      ['a data: image', '![pixel](data:image/png;base64,AAAA)', 'data:image/png;base64,AAAA'],
      ['an http image', '![pixel](http://cdn.example.com/p.png)', 'http://cdn.example.com/p.png'],
      ['a vbscript: link in raw HTML', '<a href="vbscript:msgbox(1)">x</a>', 'vbscript:msgbox(1)'],
      ['a file: reference link', '[docs][1]\n\n[1]: file:///etc/passwd', 'file:///etc/passwd'],
    ])('refuses a body with %s, naming the URL', async (_what, body_markdown, url) => {
      const res = await create({ body_markdown }).expect(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'body_markdown' });
      expect(res.body.error.message).toContain(url);
    });

    it('accepts safe links, https images, mailto and paths, and a 50000-character body', async () => {
      const body_markdown = '[a](https://x.io) [b](mailto:a@x.io) [c](/docs) [d](#top) ![i](https://cdn.x.io/i.png)';
      await create({ body_markdown }).expect(201);
      await create({ body_markdown: '🎉'.repeat(50_000) }).expect(201);
    });

    it('gates the segment audience to Builder, announcements and subscriber emails to Indie', async () => {
      const free = await t.seedProject({ plan: 'free' });
      const indie = await t.seedProject({ plan: 'indie' });
      const segment = { audience: 'segment', segment: { match: 'any', rules: [{ type: 'detail', key: 'plan', op: 'eq', value: 'pro' }] } };
      const announcement = { announcement: { style: 'modal', until: '2099-01-01T00:00:00Z' } };
      const gate = async (body: Record<string, unknown>, key: string) => (await create(body, key).expect(403)).body.error;
      expect(await gate(segment, indie.secretKey)).toMatchObject({ code: 'PLAN_UPGRADE_REQUIRED', param: 'audience' });
      expect(await gate(announcement, free.secretKey)).toMatchObject({ code: 'PLAN_UPGRADE_REQUIRED', param: 'announcement' });
      expect(await gate({ notify_subscribers: true }, free.secretKey)).toMatchObject({
        code: 'PLAN_UPGRADE_REQUIRED',
        param: 'notify_subscribers',
        message: expect.stringContaining('indie'),
      });
      expect(await countEntries(free.project.id)).toBe(0);
      await create({ notify_subscribers: false }, free.secretKey).expect(201);
      await create({ ...announcement, notify_subscribers: true }, indie.secretKey).expect(201);
      const ok = await create(segment).expect(201);
      expect(ok.body.meta.entry_options).toMatchObject({ audience: 'segment', segment: segment.segment });
    });

    it('keeps one announcement per project and names the one it replaced', async () => {
      const until = '2099-01-01T00:00:00.000Z';
      const first = await create({ announcement: { style: 'banner', until } }).expect(201);
      expect(first.body.meta.announcement_replaced_entry_id).toBeUndefined();
      const second = await create({ announcement: { style: 'toast', until } }).expect(201);
      expect(second.body.meta.announcement_replaced_entry_id).toBe(first.body.data.id);
      expect(second.body.meta.entry_options.announcement).toEqual({ style: 'toast', until });
      const old = await api().get(`/v1/changelog/entries/${first.body.data.id}`).expect(200);
      expect(old.body.meta.entry_options.announcement).toBeNull();
    });
  });

  describe('GET /v1/changelog/entries/{id}', () => {
    it('answers the entry with its options, and NOT_FOUND for another project or a bad id', async () => {
      const created = await create({ pinned: true, expires_at: '2099-01-01T00:00:00Z' }).expect(201);
      const res = await api().get(`/v1/changelog/entries/${created.body.data.id}`).expect(200);
      expect(res.body.data).toEqual(created.body.data);
      expect(res.body.meta.entry_options).toMatchObject({ pinned: true, expires_at: '2099-01-01T00:00:00.000Z' });
      const other = await t.seedProject();
      const foreign = await api(other.secretKey).get(`/v1/changelog/entries/${created.body.data.id}`).expect(404);
      expect(foreign.body.error).toMatchObject({ code: 'NOT_FOUND', param: 'id' });
      await api().get('/v1/changelog/entries/nope').expect(404);
      await api(seeded.publishableKey).get(`/v1/changelog/entries/${created.body.data.id}`).expect(403);
    });
  });

  describe('GET /v1/changelog/entries', () => {
    it('lists newest first with filters and cursor pages', async () => {
      await label('api');
      const a = await create({ title: 'Alpha 100% faster', category: 'improvement' }).expect(201);
      const b = await create({ title: 'Beta', body_markdown: 'Mentions PDF_export here', labels: ['api'] }).expect(201);
      const c = await create({ title: 'Gamma', status: 'draft', category: 'fix' }).expect(201);
      const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((entry) => entry.id);
      expect(ids(await api().get('/v1/changelog/entries').expect(200))).toEqual([c, b, a].map((r) => r.body.data.id));
      expect(ids(await api().get('/v1/changelog/entries?status=draft').expect(200))).toEqual([c.body.data.id]);
      expect(ids(await api().get('/v1/changelog/entries?category=improvement').expect(200))).toEqual([a.body.data.id]);
      expect(ids(await api().get('/v1/changelog/entries?label=api').expect(200))).toEqual([b.body.data.id]);
      expect(ids(await api().get('/v1/changelog/entries?label=unknown').expect(200))).toEqual([]);
      expect(ids(await api().get('/v1/changelog/entries?q=pdf_EXPORT').expect(200))).toEqual([b.body.data.id]);
      // LIKE metacharacters are literal: "%" matches only a real percent sign, "_" only an underscore.
      expect(ids(await api().get('/v1/changelog/entries?q=100%25').expect(200))).toEqual([a.body.data.id]);
      expect(ids(await api().get('/v1/changelog/entries?q=%25').expect(200))).toEqual([a.body.data.id]);
      expect(ids(await api().get('/v1/changelog/entries?q=F_X').expect(200))).toEqual([]);
      const page1 = await api().get('/v1/changelog/entries?limit=2').expect(200);
      expect(ids(page1)).toEqual([c, b].map((r) => r.body.data.id));
      expect(page1.body.meta).toMatchObject({ has_more: true, next_cursor: expect.any(String) });
      const page2 = await api().get(`/v1/changelog/entries?limit=2&cursor=${page1.body.meta.next_cursor}`).expect(200);
      expect(ids(page2)).toEqual([a.body.data.id]);
      expect(page2.body.meta).toEqual({ has_more: false, next_cursor: null });
    });

    it('shows a publishable key only published, public, unexpired entries', async () => {
      const visible = await create({ title: 'Public' }).expect(201);
      await create({ title: 'Draft', status: 'draft' }).expect(201);
      await create({ title: 'Later', scheduled_at: '2099-01-01T00:00:00Z' }).expect(201);
      await create({ title: 'Signed in', audience: 'signed_in' }).expect(201);
      await create({ title: 'Segment', audience: 'segment', segment: { match: 'all', rules: [{ type: 'consent', purpose: 'x' }] } }).expect(
        201,
      );
      const expiring = await create({ title: 'Expiring', expires_at: new Date(Date.now() + 60_000).toISOString() }).expect(201);
      const res = await api(seeded.publishableKey).get('/v1/changelog/entries').expect(200);
      expect(res.body.data.map((entry: { title: string }) => entry.title)).toEqual(['Expiring', 'Public']);
      t.clock.advance(120_000);
      try {
        const later = await api(seeded.publishableKey).get('/v1/changelog/entries?status=draft').expect(200);
        expect(later.body.data).toEqual([]);
        const all = await api(seeded.publishableKey).get('/v1/changelog/entries').expect(200);
        expect(all.body.data.map((entry: { id: string }) => entry.id)).toEqual([visible.body.data.id]);
      } finally {
        t.clock.reset();
      }
      expect(expiring.body.data.status).toBe('published');
    });

    it.each([
      ['limit 0', '?limit=0', 'limit'],
      ['limit 101', '?limit=101', 'limit'],
      ['a bad status', '?status=live', 'status'],
      ['a bad cursor', '?cursor=zzz', 'cursor'],
    ])('refuses %s', async (_what, query, param) => {
      const res = await api().get(`/v1/changelog/entries${query}`).expect(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param });
    });
  });

  describe('DELETE /v1/changelog/entries/{id}', () => {
    it('deletes the entry of this project only', async () => {
      const created = await create({}).expect(201);
      const other = await t.seedProject();
      await api(other.secretKey).delete(`/v1/changelog/entries/${created.body.data.id}`).expect(404);
      const res = await api().delete(`/v1/changelog/entries/${created.body.data.id}`).expect(200);
      expect(res.body.data).toEqual({ id: created.body.data.id, deleted: true });
      await api().get(`/v1/changelog/entries/${created.body.data.id}`).expect(404);
      await api().delete(`/v1/changelog/entries/${created.body.data.id}`).expect(404);
    });
  });
});
