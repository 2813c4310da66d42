import { isId } from '../common/ids/ids';

/**
 * Where a path on a verified custom domain is served from: the hosted changelog's own routes,
 * so pages and feeds are rendered by the changelog module and nowhere else. Null: not a
 * custom-domain path (the request goes on unchanged).
 *
 *   /                 → /changelog/{slug}               the hosted page (query kept: label, q)
 *   /{entry_id}       → /changelog/{slug}/{entry_id}    an entry's page
 *   /rss.xml, /feed.rss → /public/changelog/{slug}/rss.xml
 *   /atom.xml, /feed.atom → /public/changelog/{slug}/atom.xml
 *   /feed.json        → /public/changelog/{slug}/feed.json
 *   /changelog.json   → /public/changelog/{slug}        the public JSON
 */
export function customDomainPath(path: string, slug: string): string | null {
  const feeds = `/public/changelog/${slug}`;
  switch (path) {
    case '/':
      return `/changelog/${slug}`;
    case '/rss.xml':
    case '/feed.rss':
      return `${feeds}/rss.xml`;
    case '/atom.xml':
    case '/feed.atom':
      return `${feeds}/atom.xml`;
    case '/feed.json':
      return `${feeds}/feed.json`;
    case '/changelog.json':
      return feeds;
  }
  const entryId = path.slice(1);
  return isId('ce', entryId) ? `/changelog/${slug}/${entryId}` : null;
}

/** Whether a path could be served for a custom domain at all (decided before any lookup). */
export function isCustomDomainPath(path: string): boolean {
  return customDomainPath(path, 'x') !== null;
}
