import { Feed } from 'feed';
import { renderMarkdown } from '../../common/markdown/markdown-render';
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

/**
 * A feed of the public set, in the order of the JSON (the caller passes the same query's rows).
 * Item id and link are the entry's public_url; content is the sanitized HTML of the body; the
 * categories are the entry's category, then its label names. `updated` is the newest publication
 * (or the project's creation when nothing is public): never "now", so the same entries always give
 * the same bytes and the same ETag.
 */
export function buildFeed(changelog: PublicChangelog, links: FeedLinks): Feed {
  const { project, entries } = changelog;
  const newest = entries.reduce<Date | null>((latest, entry) => (latest && latest > entry.publishedAt ? latest : entry.publishedAt), null);
  const feed = new Feed({
    id: links.page,
    link: links.page,
    title: `${project.name} changelog`,
    description: `What is new in ${project.name}.`,
    updated: newest ?? project.createdAt,
    generator: 'Launch Service',
    language: 'en',
    copyright: `© ${project.name}`,
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
      title: entry.title,
      date: entry.publishedAt,
      published: entry.publishedAt,
      content: renderMarkdown(entry.bodyMarkdown).html,
      category: [{ name: entry.category }, ...entry.labels.map((label) => ({ name: label.name, term: label.slug }))],
    });
  }
  return feed;
}

/** The feed's text in one format. */
export function writeFeed(feed: Feed, format: FeedFormat): string {
  if (format === 'rss') return feed.rss2();
  if (format === 'atom') return feed.atom1();
  return feed.json1();
}
