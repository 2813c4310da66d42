import { RawReply } from '../../common/http/reply';
import { renderMarkdown } from '../../common/markdown/markdown-render';
import type { SafeHtml } from '../../common/markdown/safe-html';
import type { EntryCategory } from '../entities/changelog-entry.entity';
import { cacheableReply } from './cacheable-reply';
import { CHANGELOG_PAGE_CSP, type LayoutView, renderChangelogHtml } from './changelog-page-layout';
import type { PublicEntryRow, PublicLabel } from './public-changelog.queries';

/**
 * The hosted changelog's pages (issue 9 item 6): the list at `{base_url}/changelog/{slug}` and
 * each entry at `{base_url}/changelog/{slug}/{entry_id}` (its public_url). Links between them are
 * relative, like the waitlist's pages, so the pages work on whatever address the service is
 * reached at; the feeds and the canonical link are absolute (readers keep them), on PUBLIC_BASE_URL
 * or, when the page is served on a verified custom domain, on that domain (public-links.ts).
 */

const CATEGORY_NAMES: Record<EntryCategory, string> = {
  feature: 'New',
  fix: 'Fixed',
  improvement: 'Improved',
  security: 'Security',
  breaking: 'Breaking change',
};

const DATE_FORMAT = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });

/** A cover image is shown only from https (the spec's image rule), whatever the row holds. */
export function safeCoverUrl(url: string | null): string | null {
  return url !== null && /^https:\/\/[^\s]+$/i.test(url) ? url : null;
}

/** A button target is an http(s) URL or a site path (spec: cta_url); anything else hides the button. */
export function safeCtaUrl(url: string | null): string | null {
  if (url === null || /\s/.test(url)) return null;
  if (/^https?:\/\/./i.test(url)) return url;
  return url.startsWith('/') && !url.startsWith('//') && !url.startsWith('/\\') ? url : null;
}

export interface PageLinks {
  /** The hosted page's absolute address (the feeds' home link). */
  page: string;
  feeds: { rss: string; atom: string; json: string };
  entryUrl: (entryId: string) => string;
}

interface EntryView {
  id: string;
  href: string;
  title: string;
  version: string | null;
  category: EntryCategory;
  categoryName: string;
  publishedAt: string;
  dateText: string;
  pinned: boolean;
  cover: string | null;
  cta: { label: string; url: string; clickPath: string } | null;
  labels: PublicLabel[];
  body: SafeHtml;
}

/** `base` is the path from the page to the changelog's folder (`` on the list, `../` on an entry). */
function entryView(entry: PublicEntryRow, slug: string, base: string): EntryView {
  const ctaUrl = safeCtaUrl(entry.ctaUrl);
  const root = `${base}../`;
  return {
    id: entry.id,
    href: `${base}${slug}/${entry.id}`,
    title: entry.title,
    version: entry.version,
    category: entry.category,
    categoryName: CATEGORY_NAMES[entry.category] ?? entry.category,
    publishedAt: entry.publishedAt.toISOString(),
    dateText: DATE_FORMAT.format(entry.publishedAt),
    pinned: entry.pinned,
    cover: safeCoverUrl(entry.coverImageUrl),
    cta:
      ctaUrl && entry.ctaLabel
        ? { label: entry.ctaLabel, url: ctaUrl, clickPath: `${root}public/changelog/${slug}/entries/${entry.id}/click` }
        : null,
    labels: entry.labels,
    body: renderMarkdown(entry.bodyMarkdown),
  };
}

const ENTRY = `<article data-entry-id="{{id}}">
<div class="meta"><span class="cat cat-{{category}}">{{categoryName}}</span>{{#pinned}}<span class="pin">Pinned</span>{{/pinned}}
<time datetime="{{publishedAt}}">{{dateText}}</time>{{#version}}<span class="version">{{version}}</span>{{/version}}</div>
<h2><a href="{{href}}">{{title}}</a></h2>
{{#labels.length}}<div class="meta">{{#labels}}<span class="lbl c-{{colour}}">{{name}}</span>{{/labels}}</div>{{/labels.length}}
{{#cover}}<img class="cover" src="{{cover}}" alt="" loading="lazy">{{/cover}}
<div class="body">{{body}}</div>
{{#cta}}<p><a class="cta" href="{{url}}" data-click="{{clickPath}}" rel="noopener">{{label}}</a></p>{{/cta}}
</article>`;

const LIST = `<header><h1>{{projectName}} changelog</h1>
<p class="feeds muted">Follow: {{#feeds}}<a href="{{rss}}">RSS</a><a href="{{atom}}">Atom</a><a href="{{json}}">JSON Feed</a>{{/feeds}}</p></header>
<form class="search" method="get" role="search">
<input type="search" name="q" value="{{q}}" maxlength="200" placeholder="Search updates" aria-label="Search updates">
{{#label}}<input type="hidden" name="label" value="{{label}}">{{/label}}
<button type="submit">Search</button>
</form>
{{#labels.length}}<nav class="labels" aria-label="Labels"><a class="lbl{{^label}} active{{/label}}" href="{{allHref}}">All</a>{{#labels}}<a class="lbl c-{{colour}}{{#active}} active{{/active}}" href="{{href}}">{{name}}</a>{{/labels}}</nav>{{/labels.length}}
{{#entries}}${ENTRY}
{{/entries}}
{{^entries}}<p class="muted" id="empty">{{#filtered}}No updates match this search.{{/filtered}}{{^filtered}}No updates yet.{{/filtered}}</p>{{/entries}}`;

const ONE = `<p><a href="../{{slug}}">&larr; All {{projectName}} updates</a></p>
{{#entry}}${ENTRY}{{/entry}}`;

const NOT_FOUND = `<h1>Not found</h1><p>There is no changelog or update at this address. Check the link you followed.</p>`;

/** Query of a filter link: the search text kept, the label changed. */
function filterHref(slug: string, q: string | null, label: string | null): string {
  const params = new URLSearchParams();
  if (q) params.set('q', q);
  if (label) params.set('label', label);
  const query = params.toString();
  return query ? `${slug}?${query}` : slug;
}

interface ListPageInput {
  projectName: string;
  slug: string;
  entries: PublicEntryRow[];
  labels: PublicLabel[];
  q: string | null;
  label: string | null;
  links: PageLinks;
}

export function changelogListPage(input: ListPageInput): RawReply {
  const { slug, q, label } = input;
  const layout: LayoutView = {
    title: `${input.projectName} changelog`,
    projectName: input.projectName,
    canonical: input.links.page,
    feeds: input.links.feeds,
    seenPath: input.entries.length > 0 ? `../public/changelog/${slug}/seen` : null,
  };
  const view = {
    ...layout,
    q,
    label,
    filtered: Boolean(q || label),
    allHref: filterHref(slug, q, null),
    labels: input.labels.map((each) => ({ ...each, active: each.slug === label, href: filterHref(slug, q, each.slug) })),
    entries: input.entries.map((entry) => entryView(entry, slug, '')),
  };
  return pageReply(renderChangelogHtml(LIST, view));
}

export function changelogEntryPage(projectName: string, slug: string, entry: PublicEntryRow, links: PageLinks): RawReply {
  const layout: LayoutView = {
    title: `${entry.title} · ${projectName} changelog`,
    projectName,
    canonical: links.entryUrl(entry.id),
    feeds: links.feeds,
    seenPath: `../../public/changelog/${slug}/seen`,
  };
  return pageReply(renderChangelogHtml(ONE, { ...layout, slug, entry: entryView(entry, slug, '../') }));
}

/** Unknown slug, or an entry that is not public (draft, scheduled, archived, audience, expired). */
export function changelogNotFoundPage(): RawReply {
  const html = renderChangelogHtml(NOT_FOUND, { title: 'Not found', projectName: '' });
  // Not cached: the address may become an entry's page a moment later (a scheduled publish).
  return new RawReply(html, 'text/html; charset=utf-8', 404, {
    'Content-Security-Policy': CHANGELOG_PAGE_CSP,
    'Cache-Control': 'no-store',
  });
}

function pageReply(html: string): RawReply {
  return cacheableReply(html, 'text/html; charset=utf-8', { headers: { 'Content-Security-Policy': CHANGELOG_PAGE_CSP } });
}
