import Parser from 'rss-parser';
import { renderFeed, xmlText } from './changelog-feeds';
import type { PublicChangelog } from './public-changelog.queries';

const TITLE = `<b>Bold</b> & "double" 'single' ]]> then ]]><injected/> &amp; <![CDATA[x]]>`;
const LINKS = {
  page: 'https://launch.test/changelog/acme',
  folder: 'https://launch.test/public/changelog/acme',
  entry: (id: string) => `https://launch.test/changelog/acme/${id}`,
};

function changelog(title = TITLE, labelName = 'R&D <lab> "x"'): PublicChangelog {
  const publishedAt = new Date('2026-11-26T10:00:00.000Z');
  return {
    project: { id: 'prj_1', slug: 'acme', name: 'Tom & "Jerry" <Co>', createdAt: publishedAt },
    entries: [
      {
        id: 'ce_1',
        title,
        bodyMarkdown: 'Body with ]]> inside.',
        version: null,
        category: 'fix',
        publishedAt,
        pinned: false,
        coverImageUrl: null,
        ctaLabel: null,
        ctaUrl: null,
        labels: [{ slug: 'r-and-d', name: labelName, colour: 'blue' }],
      },
    ],
    labels: [],
    nextExpiry: null,
  };
}

describe('changelog feeds', () => {
  const parser = new Parser<object, { labels: { $: Record<string, string> }[] }>({
    customFields: { item: [['category', 'labels', { keepArray: true }]] },
  });

  it('Atom: an entry title is text (entities, not type="html" CDATA) that reads back exactly', async () => {
    const xml = renderFeed(changelog(), LINKS, 'atom');
    expect(xml).toContain(
      '<title type="text">&lt;b&gt;Bold&lt;/b&gt; &amp; &quot;double&quot; \'single\' ]]&gt; then ]]&gt;&lt;injected/&gt; &amp;amp; &lt;![CDATA[x]]&gt;</title>',
    );
    expect(xml).not.toContain('type="html"><![CDATA[<b>');
    const feed = await parser.parseString(xml);
    expect(feed.title).toBe('Tom & "Jerry" <Co> changelog');
    expect(feed.items.map((item) => item.title)).toEqual([TITLE]);
    expect(feed.items[0].labels.map((category) => category.$)).toEqual([
      { label: 'fix', term: 'fix' },
      { label: 'R&D <lab> "x"', term: 'r-and-d' },
    ]);
  });

  it('RSS: titles, label names and the project name read back exactly', async () => {
    const feed = await parser.parseString(renderFeed(changelog(), LINKS, 'rss'));
    expect(feed.title).toBe('Tom & "Jerry" <Co> changelog');
    expect(feed.description).toBe('What is new in Tom & "Jerry" <Co>.');
    expect(feed.items.map((item) => item.title)).toEqual([TITLE]);
    expect(feed.items[0].categories).toEqual(['fix', 'R&D <lab> "x"']);
  });

  it('JSON Feed: the values as they are', () => {
    const feed = JSON.parse(renderFeed(changelog(), LINKS, 'json')) as { title: string; items: { title: string; tags: string[] }[] };
    expect(feed.title).toBe('Tom & "Jerry" <Co> changelog');
    expect(feed.items[0]).toMatchObject({ title: TITLE, tags: ['fix', 'R&D <lab> "x"'] });
  });

  it('gives the same bytes for the same entries, so the ETag holds', () => {
    for (const format of ['rss', 'atom', 'json'] as const) {
      expect(renderFeed(changelog(), LINKS, format)).toBe(renderFeed(changelog(), LINKS, format));
    }
  });

  it('writes XML text: the five characters that matter, and nothing XML cannot carry', () => {
    expect(xmlText(`a & b < c > d "e" 'f'`)).toBe(`a &amp; b &lt; c &gt; d &quot;e&quot; 'f'`);
    expect(xmlText('bell\u0007 nul\u0000 tab\t fffe\ufffe emoji 😀 lone\ud800')).toBe('bell nul tab\t fffe emoji 😀 lone');
  });
});
