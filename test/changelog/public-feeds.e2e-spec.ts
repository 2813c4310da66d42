import Parser from 'rss-parser';
import { seedEntry, seedLabel } from '../support/changelog-seed';
import { UNSAFE_MARKDOWN, unsafeMarkup } from '../support/html-safety';
import { TestApp } from '../support/test-app';

interface JsonFeed {
  version: string;
  title: string;
  home_page_url: string;
  feed_url: string;
  items: { id: string; url: string; title: string; content_html: string; date_published: string; tags: string[] }[];
}

const FEEDS = [
  ['rss.xml', 'application/rss+xml; charset=utf-8'],
  ['atom.xml', 'application/atom+xml; charset=utf-8'],
  ['feed.json', 'application/feed+json; charset=utf-8'],
] as const;

describe('changelog feeds', () => {
  let t: TestApp;
  const parser = new Parser();

  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.close());

  /** A project with a mix of public and non-public entries; returns its slug. */
  async function seededChangelog(): Promise<string> {
    const { project } = await t.seedProject({ plan: 'indie', name: 'Acme & Co' });
    const now = t.clock.now().getTime();
    await seedEntry(t, project.id, { title: 'Old pinned', pinned: true, publishedAt: new Date(now - 86_400_000), labels: ['api'] });
    await seedEntry(t, project.id, {
      title: 'Newest <b>bold</b>',
      bodyMarkdown: '**Strong** words & [a link](https://example.com).',
      category: 'fix',
    });
    await seedEntry(t, project.id, { title: 'Middle', publishedAt: new Date(now - 3_600_000), category: 'security', labels: ['ui'] });
    await seedEntry(t, project.id, { title: 'Draft', status: 'draft' });
    await seedEntry(t, project.id, { title: 'Signed in', audience: 'signed_in' });
    await seedEntry(t, project.id, { title: 'Expired', expiresAt: new Date(now - 1) });
    return project.slug;
  }

  async function publicJson(slug: string): Promise<{ id: string; title: string; public_url: string; published_at: string }[]> {
    return (await t.api.get(`/public/changelog/${slug}`).expect(200)).body.data;
  }

  describe('GET /public/changelog/{project_slug}/rss.xml', () => {
    it('is RSS 2.0 that a feed parser reads, with the entries, order and links of the public JSON', async () => {
      const slug = await seededChangelog();
      const json = await publicJson(slug);
      const res = await t.api.get(`/public/changelog/${slug}/rss.xml`).expect(200);
      expect(res.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
      const feed = await parser.parseString(res.text);
      expect(feed.title).toBe('Acme & Co changelog');
      expect(feed.link).toBe(`https://launch.test/changelog/${slug}`);
      expect(res.text).toContain(
        `<atom:link href="https://launch.test/public/changelog/${slug}/rss.xml" rel="self" type="application/rss+xml"/>`,
      );
      expect(feed.items.map((item) => item.guid)).toEqual(json.map((entry) => entry.public_url));
      expect(feed.items.map((item) => item.link)).toEqual(json.map((entry) => entry.public_url));
      expect(feed.items.map((item) => item.title)).toEqual(json.map((entry) => entry.title));
      expect(feed.items.map((item) => new Date(item.pubDate as string).getTime())).toEqual(
        json.map((entry) => Math.floor(new Date(entry.published_at).getTime() / 1000) * 1000),
      );
      expect(feed.items[0].categories).toEqual(['feature', 'api']);
      expect(feed.items[1]['content:encoded']).toBe(
        '<p><strong>Strong</strong> words &amp; <a href="https://example.com" rel="nofollow noopener noreferrer">a link</a>.</p>\n',
      );
    });
  });

  describe('GET /public/changelog/{project_slug}/atom.xml', () => {
    it('is Atom that a feed parser reads, with the entries, order and links of the public JSON', async () => {
      const slug = await seededChangelog();
      const json = await publicJson(slug);
      const res = await t.api.get(`/public/changelog/${slug}/atom.xml`).expect(200);
      expect(res.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
      const feed = await parser.parseString(res.text);
      expect(feed.title).toBe('Acme & Co changelog');
      expect(res.text).toContain(`<link rel="self" href="https://launch.test/public/changelog/${slug}/atom.xml"/>`);
      expect(feed.items.map((item) => item.id)).toEqual(json.map((entry) => entry.public_url));
      expect(feed.items.map((item) => item.link)).toEqual(json.map((entry) => entry.public_url));
      expect(feed.items.map((item) => item.title)).toEqual(json.map((entry) => entry.title));
      expect(feed.items.map((item) => item.pubDate)).toEqual(json.map((entry) => entry.published_at));
      expect(feed.items[1].content).toContain('<strong>Strong</strong>');
    });
  });

  describe('GET /public/changelog/{project_slug}/feed.json', () => {
    it('is a JSON Feed with the entries, order and links of the public JSON', async () => {
      const slug = await seededChangelog();
      const json = await publicJson(slug);
      const res = await t.api.get(`/public/changelog/${slug}/feed.json`).expect(200);
      expect(res.headers['content-type']).toBe('application/feed+json; charset=utf-8');
      const feed = JSON.parse(res.text) as JsonFeed;
      expect(feed.version).toBe('https://jsonfeed.org/version/1.1');
      expect(feed).toMatchObject({
        title: 'Acme & Co changelog',
        home_page_url: `https://launch.test/changelog/${slug}`,
        feed_url: `https://launch.test/public/changelog/${slug}/feed.json`,
      });
      expect(feed.items.map((item) => item.id)).toEqual(json.map((entry) => entry.public_url));
      expect(feed.items.map((item) => item.url)).toEqual(json.map((entry) => entry.public_url));
      expect(feed.items.map((item) => item.title)).toEqual(json.map((entry) => entry.title));
      expect(feed.items.map((item) => item.date_published)).toEqual(json.map((entry) => entry.published_at));
      for (const item of feed.items) expect(typeof item.content_html).toBe('string');
      expect(feed.items[2].tags).toEqual(['security', 'ui']);
    });
  });

  describe('every feed', () => {
    it.each(FEEDS)(
      '%s carries a strong ETag and public Cache-Control, answers 304 to If-None-Match, and changes with the set',
      async (file) => {
        const { project } = await t.seedProject();
        await seedEntry(t, project.id);
        const path = `/public/changelog/${project.slug}/${file}`;
        const first = await t.api.get(path).expect(200);
        expect(first.headers.etag).toMatch(/^"[\w-]{43}"$/);
        expect(first.headers['cache-control']).toBe('public, max-age=60');
        expect((await t.api.get(path).expect(200)).headers.etag).toBe(first.headers.etag);
        const cached = await t.api.get(path).set('If-None-Match', first.headers.etag).expect(304);
        expect(cached.text).toBe('');
        await seedEntry(t, project.id, { title: 'Second' });
        expect((await t.api.get(path).set('If-None-Match', first.headers.etag).expect(200)).headers.etag).not.toBe(first.headers.etag);
      },
    );

    it.each(FEEDS)('%s answers NOT_FOUND for an unknown slug', async (file) => {
      const res = await t.api.get(`/public/changelog/no-such-project/${file}`).expect(404);
      expect(res.body).toMatchObject({ data: null, error: { code: 'NOT_FOUND', param: 'project_slug' } });
    });

    it.each(FEEDS)('%s of a changelog with nothing public is a valid empty feed', async (file) => {
      const { project } = await t.seedProject();
      const res = await t.api.get(`/public/changelog/${project.slug}/${file}`).expect(200);
      if (file === 'feed.json') expect((JSON.parse(res.text) as JsonFeed).items).toEqual([]);
      else expect((await parser.parseString(res.text)).items).toEqual([]);
    });

    it('writes titles and label names as text that reads back exactly: markup, &, quotes and CDATA ends', async () => {
      const { project } = await t.seedProject({ name: 'Tom & "Jerry" <Co>' });
      await seedLabel(t, project.id, { slug: 'r-and-d', name: 'R&D <lab> "x"' });
      const title = `<b>Bold</b> & "double" 'single' ]]> then ]]><injected/> &amp; <![CDATA[x]]>`;
      await seedEntry(t, project.id, { title, labels: ['r-and-d'] });
      const withCategories = new Parser<object, { labels: { $: { label: string; term: string } }[] }>({
        customFields: { item: [['category', 'labels', { keepArray: true }]] },
      });

      const atomText = (await t.api.get(`/public/changelog/${project.slug}/atom.xml`).expect(200)).text;
      expect(atomText).toContain('<title type="text">&lt;b&gt;Bold&lt;/b&gt; &amp; &quot;double&quot;');
      expect(atomText).not.toContain('type="html"><![CDATA[<b>');
      const atom = await withCategories.parseString(atomText);
      expect(atom.title).toBe('Tom & "Jerry" <Co> changelog');
      expect(atom.items.map((item) => item.title)).toEqual([title]);
      expect(atom.items[0].labels.map((category) => category.$)).toEqual([
        { label: 'feature', term: 'feature' },
        { label: 'R&D <lab> "x"', term: 'r-and-d' },
      ]);

      const rss = await parser.parseString((await t.api.get(`/public/changelog/${project.slug}/rss.xml`).expect(200)).text);
      expect(rss.title).toBe('Tom & "Jerry" <Co> changelog');
      expect(rss.items.map((item) => item.title)).toEqual([title]);
      expect(rss.items[0].categories).toEqual(['feature', 'R&D <lab> "x"']);

      const json = JSON.parse((await t.api.get(`/public/changelog/${project.slug}/feed.json`).expect(200)).text) as JsonFeed;
      expect(json.items.map((item) => item.title)).toEqual([title]);
    });

    it('never carries script, event handlers or javascript:/data: links from bodies stored unchecked', async () => {
      const { project } = await t.seedProject();
      await seedEntry(t, project.id, { title: 'Sneaky', bodyMarkdown: UNSAFE_MARKDOWN });
      const rss = await parser.parseString((await t.api.get(`/public/changelog/${project.slug}/rss.xml`).expect(200)).text);
      const atom = await parser.parseString((await t.api.get(`/public/changelog/${project.slug}/atom.xml`).expect(200)).text);
      const json = JSON.parse((await t.api.get(`/public/changelog/${project.slug}/feed.json`).expect(200)).text) as JsonFeed;
      const contents = [rss.items[0]['content:encoded'] as string, atom.items[0].content as string, json.items[0].content_html];
      for (const html of contents) {
        expect(html).toContain('raw link');
        expect(unsafeMarkup(html)).toEqual([]);
        // The refused links stay visible as text, which is harmless; only elements could act.
        expect(html).toContain('&lt;script&gt;alert(4)&lt;/script&gt;');
      }
    });
  });
});
