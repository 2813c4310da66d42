import { isId } from '../common/ids/ids';

const READ = new Set(['GET', 'HEAD']);
const FEED_FILES = new Set(['rss.xml', 'atom.xml', 'feed.json']);

/** Short root paths of the feeds and the public JSON → the path below /public/changelog/{slug}. */
const FEED_ALIASES = new Map([
  ['rss.xml', '/rss.xml'],
  ['feed.rss', '/rss.xml'],
  ['atom.xml', '/atom.xml'],
  ['feed.atom', '/atom.xml'],
  ['feed.json', '/feed.json'],
  ['changelog.json', ''],
]);

const isEntry = (segment: string | undefined): segment is string => segment !== undefined && isId('ce', segment);

/**
 * What a request to a verified custom domain may reach: the path of our own route that serves it,
 * or null for everything else (404, before routing). Only the domain's project (`slug`, its current
 * slug) and only its public pages: the hosted changelog page and entry pages, the feeds and the
 * public JSON, the two counters the page's script calls, and the hosted waitlist page with its
 * form. Paths are compared exactly as sent (no case folding, no trailing slash, no decoding), so
 * nothing that differs from these can be routed elsewhere by a looser match.
 *
 * Reads (GET, HEAD):
 *   /                         → /changelog/{slug}                the hosted page (query kept: label, q)
 *   /{entry_id}               → /changelog/{slug}/{entry_id}     an entry's page
 *   /{slug}, /{slug}/{entry_id} → the same pages: where the pages' relative links lead from `/`
 *   /rss.xml, /feed.rss, /atom.xml, /feed.atom, /feed.json, /changelog.json → the feeds and JSON
 *   /changelog/{slug}[/{entry_id}], /public/changelog/{slug}[/rss.xml|atom.xml|feed.json], /w/{slug}
 *                             → unchanged: the canonical addresses
 * Posts: /public/changelog/{slug}/seen, /public/changelog/{slug}/entries/{id}/click (the
 * page's view and click counters, called by relative path) and /w/{slug} (the waitlist form).
 */
export function customDomainRoute(method: string, path: string, slug: string): string | null {
  const segments = path.split('/').slice(1);
  if (READ.has(method)) return readRoute(segments, slug);
  if (method === 'POST') return postRoute(segments, slug) ? path : null;
  return null;
}

function readRoute(segments: string[], slug: string): string | null {
  const [first, second, third, fourth, ...rest] = segments;
  const page = `/changelog/${slug}`;
  const folder = `/public/changelog/${slug}`;
  if (rest.length > 0) return null;
  if (segments.length === 1) {
    if (first === '' || first === slug) return page;
    if (isEntry(first)) return `${page}/${first}`;
    const feed = FEED_ALIASES.get(first);
    return feed === undefined ? null : `${folder}${feed}`;
  }
  if (segments.length === 2) {
    if (first === slug && isEntry(second)) return `${page}/${second}`;
    if (first === 'changelog' && second === slug) return page;
    if (first === 'w' && second === slug) return `/w/${slug}`;
    return null;
  }
  if (first === 'changelog' && second === slug && segments.length === 3 && isEntry(third)) return `${page}/${third}`;
  if (first === 'public' && second === 'changelog' && third === slug) {
    if (segments.length === 3) return folder;
    if (FEED_FILES.has(fourth)) return `${folder}/${fourth}`;
  }
  return null;
}

function postRoute(segments: string[], slug: string): boolean {
  const [first, second, third, fourth, fifth, sixth] = segments;
  if (segments.length === 2) return first === 'w' && second === slug;
  if (first !== 'public' || second !== 'changelog' || third !== slug) return false;
  if (segments.length === 4) return fourth === 'seen';
  return segments.length === 6 && fourth === 'entries' && isEntry(fifth) && sixth === 'click';
}
