import { xml2js, type Element } from 'xml-js';
import { renderFeed } from './changelog-feeds';
import type { PublicChangelog } from './public-changelog.queries';

/**
 * The elements each standard requires, read back from the feeds with an XML parser: Atom (RFC 4287
 * §4.1), RSS 2.0 (the channel's and items' required elements) and JSON Feed 1.1. A reader that is
 * strict about them (validators, some podcast and news apps) drops a feed that lacks one.
 */
const LINKS = {
  page: 'https://launch.test/changelog/acme',
  folder: 'https://launch.test/public/changelog/acme',
  entry: (id: string) => `https://launch.test/changelog/acme/${id}`,
};

function changelog(entries: number): PublicChangelog {
  const publishedAt = (day: number) => new Date(Date.UTC(2026, 10, day, 10));
  return {
    project: { id: 'prj_1', slug: 'acme', name: 'Acme & Co', createdAt: publishedAt(1) },
    entries: Array.from({ length: entries }, (_, index) => ({
      id: `ce_${index + 1}`,
      title: `Release ${index + 1}`,
      bodyMarkdown: `**Faster** exports & a fix for <b>bold</b> names, number ${index + 1}.`,
      version: null,
      category: 'improvement',
      publishedAt: publishedAt(index + 2),
      pinned: false,
      coverImageUrl: null,
      ctaLabel: null,
      ctaUrl: null,
      labels: [{ slug: 'exports', name: 'Exports & CSV', colour: 'blue' }],
    })),
    labels: [],
    nextExpiry: null,
  };
}

function parse(xml: string): Element {
  const root = (xml2js(xml, { compact: false }) as Element).elements?.find((node) => node.type === 'element');
  if (!root) throw new Error('no root element');
  return root;
}

const children = (parent: Element, name: string): Element[] => (parent.elements ?? []).filter((node) => node.name === name);

function only(parent: Element, name: string): Element {
  const found = children(parent, name);
  expect({ element: name, count: found.length }).toEqual({ element: name, count: 1 });
  return found[0];
}

const textOf = (element: Element): string => (element.elements ?? []).map((node) => String(node.text ?? node.cdata ?? '')).join('');

describe('feeds against their standards', () => {
  it('Atom: the feed has id, title, updated and an author with a name; each entry id, title, updated, a text summary and categories with a term', () => {
    const feed = parse(renderFeed(changelog(2), LINKS, 'atom'));
    expect(feed.name).toBe('feed');
    expect(feed.attributes?.xmlns).toBe('http://www.w3.org/2005/Atom');
    expect(textOf(only(feed, 'id'))).toBe(LINKS.page);
    expect(textOf(only(feed, 'title'))).toBe('Acme & Co changelog');
    expect(textOf(only(feed, 'updated'))).toBe('2026-11-03T10:00:00.000Z');
    expect(textOf(only(only(feed, 'author'), 'name'))).toBe('Acme & Co');
    const self = children(feed, 'link').find((link) => link.attributes?.rel === 'self');
    expect(self?.attributes?.href).toBe(`${LINKS.folder}/atom.xml`);
    const entries = children(feed, 'entry');
    expect(entries).toHaveLength(2);
    for (const entry of entries) {
      expect(textOf(only(entry, 'id'))).toMatch(/^https:\/\/launch\.test\/changelog\/acme\/ce_\d$/);
      expect(textOf(only(entry, 'title'))).toMatch(/^Release \d$/);
      expect(textOf(only(entry, 'updated'))).toMatch(/^2026-11-0\dT10:00:00\.000Z$/);
      const summary = only(entry, 'summary');
      expect(summary.attributes?.type).toBe('text');
      expect(textOf(summary)).toMatch(/^Faster exports & a fix for <b>bold<\/b> names, number \d\.$/);
      const categories = children(entry, 'category');
      expect(categories.map((category) => category.attributes?.term)).toEqual(['improvement', 'exports']);
    }
  });

  it('RSS 2.0: the channel has title, link and description; each item a title, a plain-text description, a guid and its categories', () => {
    const rss = parse(renderFeed(changelog(2), LINKS, 'rss'));
    expect(rss.name).toBe('rss');
    expect(rss.attributes?.version).toBe('2.0');
    const channel = only(rss, 'channel');
    expect(textOf(only(channel, 'title'))).toBe('Acme & Co changelog');
    expect(textOf(only(channel, 'link'))).toBe(LINKS.page);
    expect(textOf(only(channel, 'description'))).toBe('What is new in Acme & Co.');
    const items = children(channel, 'item');
    expect(items).toHaveLength(2);
    for (const item of items) {
      expect(textOf(only(item, 'title'))).toMatch(/^Release \d$/);
      expect(textOf(only(item, 'description'))).toMatch(/^Faster exports & a fix for <b>bold<\/b> names, number \d\.$/);
      expect(textOf(only(item, 'guid'))).toMatch(/^https:\/\/launch\.test\/changelog\/acme\/ce_\d$/);
      expect(children(item, 'category').map(textOf)).toEqual(['improvement', 'Exports & CSV']);
    }
  });

  it('JSON Feed 1.1: version URL, title, authors (not the 1.0 author), language, and items with id, content and summary', () => {
    const feed = JSON.parse(renderFeed(changelog(2), LINKS, 'json')) as Record<string, unknown> & { items: Record<string, unknown>[] };
    expect(feed.version).toBe('https://jsonfeed.org/version/1.1');
    expect(feed.title).toBe('Acme & Co changelog');
    expect(feed.authors).toEqual([{ name: 'Acme & Co', url: LINKS.page }]);
    expect(feed).not.toHaveProperty('author');
    expect(feed.language).toBe('en');
    expect(feed.feed_url).toBe(`${LINKS.folder}/feed.json`);
    expect(feed.items).toHaveLength(2);
    for (const item of feed.items) {
      expect(item.id).toMatch(/^https:\/\/launch\.test\/changelog\/acme\/ce_\d$/);
      expect(item.content_html).toMatch(/^<p><strong>Faster<\/strong> exports &amp; a fix/);
      expect(item.summary).toMatch(/^Faster exports & a fix for <b>bold<\/b> names, number \d\.$/);
    }
  });

  it('an empty changelog is still a valid feed in every format', () => {
    const atom = parse(renderFeed(changelog(0), LINKS, 'atom'));
    expect(textOf(only(atom, 'updated'))).toBe('2026-11-01T10:00:00.000Z');
    expect(textOf(only(only(atom, 'author'), 'name'))).toBe('Acme & Co');
    expect(children(only(parse(renderFeed(changelog(0), LINKS, 'rss')), 'channel'), 'item')).toEqual([]);
    expect(JSON.parse(renderFeed(changelog(0), LINKS, 'json'))).toMatchObject({ items: [], version: 'https://jsonfeed.org/version/1.1' });
  });
});
