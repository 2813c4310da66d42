import { randomBytes } from 'node:crypto';
import { Feed } from 'feed';
import { markdownExcerpt, renderMarkdown } from '../../common/markdown/markdown-render';
import type { PublicChangelog } from './public-changelog.queries';

/** The three feed formats, their paths under `/public/changelog/{slug}/` and content types. */
export const FEED_FORMATS = {
  rss: { file: 'rss.xml', contentType: 'application/rss+xml; charset=utf-8' },
  atom: { file: 'atom.xml', contentType: 'application/atom+xml; charset=utf-8' },
  json: { file: 'feed.json', contentType: 'application/feed+json; charset=utf-8' },
} as const;

export type FeedFormat = keyof typeof FEED_FORMATS;

export interface FeedLinks {
  /** The hosted page: `{base_url}/changelog/{slug}`. */
  page: string;
  /** `{base_url}/public/changelog/{slug}`: the feeds' folder. */
  folder: string;
  /** An entry's public_url. */
  entry: (entryId: string) => string;
}

/** The feed's text in one format. */
export function renderFeed(changelog: PublicChangelog, links: FeedLinks, format: FeedFormat): string {
  if (format === 'json') return asJsonFeed11(buildFeed(changelog, links, (value) => value).json1(), changelog, links);
  const texts = new XmlTexts();
  const feed = buildFeed(changelog, links, (value) => texts.hold(value));
  return texts.write(format === 'rss' ? feed.rss2() : feed.atom1());
}

/**
 * A feed of the public set, in the order of the JSON (the caller passes the same query's rows).
 * Item id and link are the entry's public_url; content is the sanitized HTML of the body; the
 * categories are the entry's category, then its label names. `updated` is the newest publication
 * (or the project's creation when nothing is public): never "now", so the same entries always give
 * the same bytes and the same ETag. `text` places each owner-written text (project name, entry
 * title, label name) in the feed.
 */
function buildFeed(changelog: PublicChangelog, links: FeedLinks, text: (value: string) => string): Feed {
  const { project, entries } = changelog;
  const newest = entries.reduce<Date | null>((latest, entry) => (latest && latest > entry.publishedAt ? latest : entry.publishedAt), null);
  const feed = new Feed({
    id: links.page,
    link: links.page,
    title: text(`${project.name} changelog`),
    description: text(`What is new in ${project.name}.`),
    updated: newest ?? project.createdAt,
    generator: 'Launch Service',
    language: 'en',
    copyright: text(`© ${project.name}`),
    // Atom requires an author on the feed when its entries name none: the project speaks for itself.
    author: { name: text(project.name), link: links.page },
    feedLinks: {
      rss: `${links.folder}/${FEED_FORMATS.rss.file}`,
      atom: `${links.folder}/${FEED_FORMATS.atom.file}`,
      json: `${links.folder}/${FEED_FORMATS.json.file}`,
    },
  });
  for (const entry of entries) {
    const url = links.entry(entry.id);
    feed.addItem({
      id: url,
      link: url,
      title: text(entry.title),
      date: entry.publishedAt,
      published: entry.publishedAt,
      // RSS readers show `description` in lists; Atom writes it as the entry's summary.
      description: text(markdownExcerpt(entry.bodyMarkdown)),
      content: renderMarkdown(entry.bodyMarkdown).html,
      // Atom requires a term on every category; RSS writes the name.
      category: [
        { name: entry.category, term: entry.category },
        ...entry.labels.map((label) => ({ name: text(label.name), term: label.slug })),
      ],
    });
  }
  return feed;
}

/**
 * The feed package writes JSON Feed 1.0. Version 1.1 (https://www.jsonfeed.org/version/1.1/) names
 * the version by its own URL, replaces `author` with an `authors` list and adds `language`; readers
 * of 1.0 read 1.1 unchanged.
 */
function asJsonFeed11(json1: string, changelog: PublicChangelog, links: FeedLinks): string {
  const { author: _author, ...feed } = JSON.parse(json1) as Record<string, unknown>;
  const authors = [{ name: changelog.project.name, url: links.page }];
  return JSON.stringify({ ...feed, version: 'https://jsonfeed.org/version/1.1', language: 'en', authors }, null, 4);
}

const XML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
// Characters XML 1.0 cannot carry at all, not even as a character reference.
const NOT_XML_CHAR = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu;

/** Text for XML character data or a double-quoted attribute. */
export function xmlText(value: string): string {
  return value.replace(NOT_XML_CHAR, '').replace(/[&<>"]/g, (char) => XML_ENTITIES[char]);
}

/**
 * The feed package writes XML with xml-js, which leaves `&` and `<` raw in attributes, ends a CDATA
 * section early at a second `]]>`, and writes entry titles and summaries as Atom `type="html"`: an
 * owner's title or label name could break the feed, add elements to it, or show as markup in
 * readers. So owner text goes into the feed as a placeholder (letters and digits, which xml-js
 * writes unchanged anywhere), and each is replaced in the finished XML by its escaped text; an Atom
 * entry title or summary becomes `type="text"`. The placeholders carry a random prefix, so no body can contain one.
 */
class XmlTexts {
  private readonly prefix = `text${randomBytes(9).toString('hex')}n`;
  private readonly values: string[] = [];

  hold(value: string): string {
    this.values.push(value);
    return `${this.prefix}${this.values.length - 1}x`;
  }

  write(xml: string): string {
    const placeholder = new RegExp(
      `(?:<(title|summary) type="html">)?(?:<!\\[CDATA\\[${this.prefix}(\\d+)x\\]\\]>|${this.prefix}(\\d+)x)`,
      'g',
    );
    return xml.replace(placeholder, (_match, htmlElement: string | undefined, inCdata: string | undefined, bare: string | undefined) => {
      const escaped = xmlText(this.values[Number(inCdata ?? bare)]);
      return htmlElement ? `<${htmlElement} type="text">${escaped}` : escaped;
    });
  }
}
