import { entryCounts } from '../support/engagement';
import { parseDocument, DomUtils } from 'htmlparser2';
import type { Element } from 'domhandler';
import { seedEntry } from '../support/changelog-seed';
import { UNSAFE_MARKDOWN, unsafeMarkup } from '../support/html-safety';
import { SeededProject, TestApp } from '../support/test-app';

type Doc = ReturnType<typeof parseDocument>;

const all = (doc: Doc, test: (element: Element) => boolean) => DomUtils.findAll(test, doc.children);
const byTag = (doc: Doc, name: string) => all(doc, (element) => element.name === name);
const byClass = (doc: Doc, name: string) => all(doc, (element) => (element.attribs.class ?? '').split(' ').includes(name));
const text = (element: Element) => DomUtils.textContent(element).trim();
const articleIds = (doc: Doc) => byTag(doc, 'article').map((article) => article.attribs['data-entry-id']);

describe('the hosted changelog', () => {
  let t: TestApp;

  beforeAll(async () => {
    // Many page loads from one address: the per-IP limit has its own test below.
    t = await TestApp.start({ env: { BROWSER_RATE_LIMIT: '100000' } });
  });
  afterAll(() => t.close());
  afterEach(() => t.clock.reset());

  async function page(path: string, status = 200): Promise<{ doc: Doc; html: string; headers: Record<string, string> }> {
    const res = await t.api.get(path).expect(status);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    return { doc: parseDocument(res.text), html: res.text, headers: res.headers as Record<string, string> };
  }

  const NOTHING = { widgetViews: 0, pageViews: 0, ctaClicks: 0, anonymousReaders: 0 };

  describe('GET /changelog/{project_slug}', () => {
    let seeded: SeededProject;
    let ids: string[];

    beforeAll(async () => {
      seeded = await t.seedProject({ plan: 'indie', name: `Ada's <Engines>` });
      const p = seeded.project.id;
      const now = t.clock.now().getTime();
      const pinned = await seedEntry(t, p, {
        title: 'Pinned <intro>',
        pinned: true,
        publishedAt: new Date(now - 86_400_000 * 10),
        version: '2.0.0',
        category: 'breaking',
        coverImageUrl: 'https://images.example/cover.png',
        ctaLabel: 'Try it',
        ctaUrl: 'https://app.example/try',
        labels: ['api'],
      });
      const newest = await seedEntry(t, p, {
        title: 'Dark mode',
        bodyMarkdown: 'Follows **your** theme.',
        category: 'feature',
        labels: ['ui'],
      });
      const older = await seedEntry(t, p, { title: 'Fixed export', category: 'fix', publishedAt: new Date(now - 86_400_000) });
      await seedEntry(t, p, { title: 'Secret draft', status: 'draft', labels: ['unreleased'] });
      await seedEntry(t, p, { title: 'Members only', audience: 'signed_in' });
      ids = [pinned.id, newest.id, older.id];
    });

    it('shows the public set in the order of the JSON, with badges, dates, version, labels, cover and button', async () => {
      const json = (await t.api.get(`/public/changelog/${seeded.project.slug}`).expect(200)).body.data;
      const { doc, html } = await page(`/changelog/${seeded.project.slug}`);
      expect(articleIds(doc)).toEqual(json.map((entry: { id: string }) => entry.id));
      expect(articleIds(doc)).toEqual(ids);
      expect(text(byTag(doc, 'title')[0])).toBe(`Ada's <Engines> changelog`);
      expect(text(byTag(doc, 'h1')[0])).toBe(`Ada's <Engines> changelog`);
      expect(html).toContain('Ada&#39;s &lt;Engines&gt;');
      expect(byTag(doc, 'h2').map(text)).toEqual(['Pinned <intro>', 'Dark mode', 'Fixed export']);
      expect(byClass(doc, 'cat').map(text)).toEqual(['Breaking change', 'New', 'Fixed']);
      expect(byClass(doc, 'pin').map(text)).toEqual(['Pinned']);
      expect(byClass(doc, 'version').map(text)).toEqual(['2.0.0']);
      const time = byTag(doc, 'time')[1];
      expect(time.attribs.datetime).toBe(json[1].published_at);
      expect(text(time)).toMatch(/^[A-Z][a-z]+ \d{1,2}, \d{4}$/);
      expect(byClass(doc, 'cover').map((img) => img.attribs.src)).toEqual(['https://images.example/cover.png']);
      const [cta] = byClass(doc, 'cta');
      expect(cta.attribs.href).toBe('https://app.example/try');
      expect(cta.attribs['data-click']).toBe(`../public/changelog/${seeded.project.slug}/entries/${ids[0]}/click`);
      expect(text(cta)).toBe('Try it');
      expect(html).toContain('<p>Follows <strong>your</strong> theme.</p>');
      const titleLink = DomUtils.findOne(
        (element) => element.name === 'a' && (element.parent as Element | null)?.name === 'h2',
        doc.children,
      );
      expect(titleLink?.attribs.href).toBe(`${seeded.project.slug}/${ids[0]}`);
      expect(html).not.toContain('Secret draft');
      expect(html).not.toContain('Members only');
    });

    it('links the three feeds in <head>, sets the viewport and both colour schemes', async () => {
      const { doc, html } = await page(`/changelog/${seeded.project.slug}`);
      const alternates = all(doc, (element) => element.name === 'link' && element.attribs.rel === 'alternate');
      const base = `https://launch.test/public/changelog/${seeded.project.slug}`;
      expect(alternates.map((link) => [link.attribs.type, link.attribs.href])).toEqual([
        ['application/rss+xml', `${base}/rss.xml`],
        ['application/atom+xml', `${base}/atom.xml`],
        ['application/feed+json', `${base}/feed.json`],
      ]);
      expect(alternates.every((link) => (link.parent as Element | null)?.name === 'head')).toBe(true);
      expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
      expect(html).toContain('@media (prefers-color-scheme:dark)');
      const canonical = all(doc, (element) => element.name === 'link' && element.attribs.rel === 'canonical')[0];
      expect(canonical.attribs.href).toBe(`https://launch.test/changelog/${seeded.project.slug}`);
    });

    it('filters by label with links for the labels in use only, and searches with a GET form', async () => {
      const slug = seeded.project.slug;
      const { doc } = await page(`/changelog/${slug}`);
      const nav = byTag(doc, 'nav')[0];
      const links = DomUtils.findAll((element) => element.name === 'a', [nav]);
      expect(links.map((link) => [text(link), link.attribs.href])).toEqual([
        ['All', slug],
        ['api', `${slug}?label=api`],
        ['ui', `${slug}?label=ui`],
      ]);
      const [form] = byTag(doc, 'form');
      expect(form.attribs.method).toBe('get');
      expect(form.attribs.action).toBeUndefined();
      expect(articleIds((await page(`/changelog/${slug}?label=ui`)).doc)).toEqual([ids[1]]);
      const searched = (await page(`/changelog/${slug}?q=${encodeURIComponent('EXPORT')}&label=`)).doc;
      expect(articleIds(searched)).toEqual([ids[2]]);
      expect(all(searched, (element) => element.name === 'input' && element.attribs.name === 'q')[0].attribs.value).toBe('EXPORT');
      const filtered = (await page(`/changelog/${slug}?label=ui&q=${encodeURIComponent('"><script>')}`)).doc;
      expect(articleIds(filtered)).toEqual([]);
      expect(text(byTag(filtered, 'p').find((p) => p.attribs.id === 'empty') as Element)).toBe('No updates match this search.');
      expect(all(filtered, (element) => element.name === 'input' && element.attribs.name === 'q')[0].attribs.value).toBe('"><script>');
      expect(all(filtered, (element) => element.name === 'input' && element.attribs.name === 'label')[0].attribs.value).toBe('ui');
      // A malformed label is ignored, not an error: a page is always a page.
      expect(articleIds((await page(`/changelog/${slug}?label=Not%20A%20Slug`)).doc)).toEqual(ids);
    });

    it('is cacheable: strong ETag, public Cache-Control, 304 to If-None-Match, and a policy with hashed style and script', async () => {
      const { headers } = await page(`/changelog/${seeded.project.slug}`);
      expect(headers.etag).toMatch(/^"[\w-]{43}"$/);
      expect(headers['cache-control']).toBe('public, max-age=60');
      const csp = headers['content-security-policy'];
      expect(csp).toMatch(
        /default-src 'none'; style-src 'sha256-[\w+/=]+'; script-src 'sha256-[\w+/=]+'; img-src https: data:; connect-src 'self'/,
      );
      expect(csp).not.toContain('unsafe-inline');
      const cached = await t.api.get(`/changelog/${seeded.project.slug}`).set('If-None-Match', headers.etag).expect(304);
      expect(cached.text).toBe('');
    });
  });

  describe('GET /changelog/{project_slug}/{entry_id}', () => {
    it("shows one public entry at its public_url's path", async () => {
      const { project } = await t.seedProject({ name: 'Acme' });
      const entry = await seedEntry(t, project.id, { title: 'One entry', bodyMarkdown: '# Heading\n\nText.', labels: ['api'] });
      const json = (await t.api.get(`/public/changelog/${project.slug}`).expect(200)).body.data[0];
      expect(new URL(json.public_url).pathname).toBe(`/changelog/${project.slug}/${entry.id}`);
      const { doc, html, headers } = await page(`/changelog/${project.slug}/${entry.id}`);
      expect(articleIds(doc)).toEqual([entry.id]);
      expect(text(byTag(doc, 'title')[0])).toBe('One entry · Acme changelog');
      expect(html).toContain('<h1>Heading</h1>');
      expect(byTag(doc, 'body')[0].attribs['data-seen']).toBe(`../../public/changelog/${project.slug}/seen`);
      expect(all(doc, (element) => element.name === 'link' && element.attribs.rel === 'canonical')[0].attribs.href).toBe(json.public_url);
      expect(headers['cache-control']).toBe('public, max-age=60');
      expect(all(doc, (element) => element.name === 'a' && text(element).startsWith('←'))[0].attribs.href).toBe(`../${project.slug}`);
    });

    it('answers the same 404 page to anyone for entries outside the public set, other projects, unknown slugs and ids', async () => {
      const { project } = await t.seedProject();
      const { project: other } = await t.seedProject();
      const now = t.clock.now().getTime();
      const hidden = [
        await seedEntry(t, project.id, { status: 'draft' }),
        await seedEntry(t, project.id, { status: 'scheduled', scheduledAt: new Date(now + 60_000) }),
        await seedEntry(t, project.id, { status: 'archived', archivedAt: new Date(now) }),
        await seedEntry(t, project.id, { audience: 'signed_in' }),
        await seedEntry(t, project.id, { audience: 'segment', segment: { match: 'any', rules: [] } }),
        await seedEntry(t, project.id, { expiresAt: new Date(now - 1) }),
      ];
      const elsewhere = await seedEntry(t, other.id);
      const paths = [
        ...hidden.map((entry) => `/changelog/${project.slug}/${entry.id}`),
        `/changelog/${project.slug}/${elsewhere.id}`,
        `/changelog/${project.slug}/ce_nope`,
        `/changelog/no-such-project/${elsewhere.id}`,
        '/changelog/no-such-project',
        '/changelog/Bad_Slug',
      ];
      const bodies = new Set<string>();
      for (const path of paths) {
        const { doc, html, headers } = await page(path, 404);
        expect(text(byTag(doc, 'h1')[0])).toBe('Not found');
        expect(headers['cache-control']).toBe('no-store');
        bodies.add(html);
      }
      expect(bodies.size).toBe(1);
      await page(`/changelog/${other.slug}/${elsewhere.id}`, 200);
    });
  });

  describe('unsafe content stored without the write checks', () => {
    it('never reaches the page: no script but the page own, no handlers, no javascript: or data: links, no bad cover or button', async () => {
      const { project } = await t.seedProject();
      const entry = await seedEntry(t, project.id, {
        title: '<script>alert("title")</script>',
        bodyMarkdown: UNSAFE_MARKDOWN,
        coverImageUrl: 'javascript:alert(1)',
        ctaLabel: 'Click',
        ctaUrl: 'javascript:alert(2)',
      });
      await seedEntry(t, project.id, { coverImageUrl: 'http://insecure.example/a.png', ctaLabel: 'Go', ctaUrl: '//evil.example/x' });
      for (const path of [`/changelog/${project.slug}`, `/changelog/${project.slug}/${entry.id}`]) {
        const { doc, html } = await page(path);
        expect(unsafeMarkup(html, 1)).toEqual([]);
        const scripts = byTag(doc, 'script');
        expect(scripts).toHaveLength(1);
        expect(text(scripts[0])).not.toMatch(/alert/);
        expect(byClass(doc, 'cover')).toEqual([]);
        expect(byClass(doc, 'cta')).toEqual([]);
        expect(html).toContain('&lt;script&gt;alert(&quot;title&quot;)&lt;/script&gt;');
        expect(html).toContain('raw link');
      }
    });
  });

  describe('POST /public/changelog/{project_slug}/seen', () => {
    it('records a page view for each public entry sent and skips the rest', async () => {
      const { project } = await t.seedProject();
      const { project: other } = await t.seedProject();
      const [a, b] = [await seedEntry(t, project.id), await seedEntry(t, project.id)];
      const draft = await seedEntry(t, project.id, { status: 'draft' });
      const foreign = await seedEntry(t, other.id);
      t.clock.freeze('2026-11-20T10:00:00Z');
      const res = await t.api
        .post(`/public/changelog/${project.slug}/seen`)
        .send({ entry_ids: [a.id, b.id, a.id, draft.id, foreign.id, 'ce_00000000000000000000000000'] })
        .expect(200);
      expect(res.body).toEqual({ data: { recorded: 2 }, error: null });
      expect(await entryCounts(t, a.id)).toEqual({ ...NOTHING, pageViews: 1 });
      const [day] = await t.db.manager.query('SELECT day::text AS day, project_id FROM changelog_entry_counts WHERE entry_id = $1', [a.id]);
      expect(day).toEqual({ day: '2026-11-20', project_id: project.id });
      expect(await entryCounts(t, b.id)).toEqual({ ...NOTHING, pageViews: 1 });
      expect(await entryCounts(t, draft.id)).toEqual(NOTHING);
      expect(await entryCounts(t, foreign.id)).toEqual(NOTHING);
    });

    it('is open to any origin without a key', async () => {
      const { project } = await t.seedProject();
      const preflight = await t.api
        .options(`/public/changelog/${project.slug}/seen`)
        .set('Origin', 'https://elsewhere.example')
        .set('Access-Control-Request-Method', 'POST')
        .set('Access-Control-Request-Headers', 'content-type');
      expect(preflight.status).toBe(204);
      expect(preflight.headers['access-control-allow-origin']).toBe('*');
    });

    it.each([
      [{}, 'entry_ids'],
      [{ entry_ids: [] }, 'entry_ids'],
      [{ entry_ids: Array.from({ length: 51 }, () => 'ce_00000000000000000000000000') }, 'entry_ids'],
      [{ entry_ids: ['nope'] }, 'entry_ids'],
      [{ entry_ids: ['ce_00000000000000000000000000'], extra: 1 }, 'extra'],
    ])('refuses %j with VALIDATION_ERROR', async (body, param) => {
      const { project } = await t.seedProject();
      const res = await t.api.post(`/public/changelog/${project.slug}/seen`).send(body).expect(400);
      expect(res.body).toMatchObject({ data: null, error: { code: 'VALIDATION_ERROR' } });
      expect(res.body.error.param).toMatch(new RegExp(`^${param}`));
    });

    it('answers NOT_FOUND for an unknown slug', async () => {
      const res = await t.api
        .post('/public/changelog/no-such-project/seen')
        .send({ entry_ids: ['ce_00000000000000000000000000'] })
        .expect(404);
      expect(res.body).toMatchObject({ data: null, error: { code: 'NOT_FOUND', param: 'project_slug' } });
    });
  });

  describe('POST /public/changelog/{project_slug}/entries/{id}/click', () => {
    it('records a button click of a public entry', async () => {
      const { project } = await t.seedProject();
      const entry = await seedEntry(t, project.id, { ctaLabel: 'Go', ctaUrl: '/start' });
      const res = await t.api.post(`/public/changelog/${project.slug}/entries/${entry.id}/click`).expect(200);
      expect(res.body).toEqual({ data: { recorded: 1 }, error: null });
      expect(await entryCounts(t, entry.id)).toEqual({ ...NOTHING, ctaClicks: 1 });
    });

    it('answers NOT_FOUND for an entry outside the public set, of another project, a malformed id or an unknown slug', async () => {
      const { project } = await t.seedProject();
      const { project: other } = await t.seedProject();
      const draft = await seedEntry(t, project.id, { status: 'draft' });
      const foreign = await seedEntry(t, other.id);
      for (const id of [draft.id, foreign.id, 'nope']) {
        const res = await t.api.post(`/public/changelog/${project.slug}/entries/${id}/click`).expect(404);
        expect(res.body).toMatchObject({ data: null, error: { code: 'NOT_FOUND', param: 'id' } });
      }
      const res = await t.api.post(`/public/changelog/no-such-project/entries/${foreign.id}/click`).expect(404);
      expect(res.body.error).toMatchObject({ code: 'NOT_FOUND', param: 'project_slug' });
      expect(await entryCounts(t, draft.id)).toEqual(NOTHING);
      expect(await entryCounts(t, foreign.id)).toEqual(NOTHING);
    });
  });
});

describe('the per-IP browser limit on the public changelog', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start({ env: { BROWSER_RATE_LIMIT: '3' } });
  });
  afterAll(() => t.close());

  it('answers RATE_LIMITED with Retry-After past the limit, across the page, JSON and counting routes', async () => {
    const { project } = await t.seedProject();
    const entry = await seedEntry(t, project.id);
    await t.api.get(`/changelog/${project.slug}`).expect(200);
    await t.api.get(`/public/changelog/${project.slug}`).expect(200);
    await t.api
      .post(`/public/changelog/${project.slug}/seen`)
      .send({ entry_ids: [entry.id] })
      .expect(200);
    const limited = await t.api.post(`/public/changelog/${project.slug}/entries/${entry.id}/click`).expect(429);
    expect(limited.body).toMatchObject({ data: null, error: { code: 'RATE_LIMITED' } });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});
