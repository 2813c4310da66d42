import { createHash } from 'node:crypto';
import { render } from 'mustache';
import { escapeHtml } from '../../common/html/html-page';

/**
 * The hosted changelog's layout: one Mustache template, auto-escaped by the house escape function
 * (common/html/html-page.ts), which lets only a SafeHtml (sanitized markdown) through as it is.
 * No unescaped Mustache forms anywhere (a unit test checks). One inline style and one inline
 * script, each allowed by its hash in the Content-Security-Policy: no 'unsafe-inline', no asset
 * routes. The page is complete without the script; the script only counts views and button clicks.
 */

const STYLE = [
  ':root{color-scheme:light dark;--bg:#ffffff;--fg:#111827;--muted:#4b5563;--line:#e5e7eb;--card:#f9fafb;--accent:#4f46e5;--accent-fg:#ffffff}',
  '@media (prefers-color-scheme:dark){:root{--bg:#0b0f19;--fg:#e5e7eb;--muted:#9ca3af;--line:#1f2937;--card:#111827;--accent:#818cf8;--accent-fg:#0b0f19}}',
  '*{box-sizing:border-box}',
  'html{background:var(--bg)}',
  'body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.6 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;overflow-wrap:anywhere}',
  'main{max-width:720px;margin:0 auto;padding:1.5rem 1rem 3rem}',
  'header h1{font-size:1.6rem;margin:0 0 .25rem}',
  'a{color:var(--accent)}',
  '.muted{color:var(--muted)}',
  '.feeds a{margin-right:.75rem;font-size:.9rem}',
  'form.search{display:flex;gap:.5rem;margin:1rem 0}',
  'form.search input{flex:1;min-width:0;padding:.5rem;font-size:1rem;border:1px solid var(--line);border-radius:6px;background:var(--card);color:var(--fg)}',
  'form.search button,.cta{padding:.5rem 1rem;font-size:1rem;border:0;border-radius:6px;background:var(--accent);color:var(--accent-fg);cursor:pointer;text-decoration:none;display:inline-block}',
  'nav.labels{display:flex;flex-wrap:wrap;gap:.5rem;margin:0 0 1rem}',
  '.lbl{display:inline-block;padding:0 .5rem;border:1px solid var(--c,var(--line));border-radius:999px;color:var(--c,var(--fg));font-size:.8rem;text-decoration:none}',
  '.lbl.active{background:var(--c,var(--fg));color:var(--bg)}',
  '.c-gray{--c:#6b7280}.c-red{--c:#dc2626}.c-orange{--c:#ea580c}.c-amber{--c:#d97706}.c-green{--c:#16a34a}',
  '.c-teal{--c:#0d9488}.c-blue{--c:#2563eb}.c-indigo{--c:#6366f1}.c-purple{--c:#9333ea}.c-pink{--c:#db2777}',
  'article{border-top:1px solid var(--line);padding:1.5rem 0}',
  'article h2{font-size:1.3rem;margin:.25rem 0}',
  'article h2 a{color:inherit;text-decoration:none}',
  '.meta{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;font-size:.85rem;color:var(--muted)}',
  '.cat{padding:0 .5rem;border-radius:4px;font-weight:600;font-size:.75rem;text-transform:uppercase;letter-spacing:.03em;background:var(--card);border:1px solid var(--line)}',
  '.cat-feature{color:#16a34a}.cat-fix{color:#2563eb}.cat-improvement{color:#9333ea}.cat-security{color:#d97706}.cat-breaking{color:#dc2626}',
  '.pin{font-weight:600;color:var(--accent)}',
  '.cover{display:block;width:100%;height:auto;border-radius:8px;margin:.75rem 0}',
  '.body img{max-width:100%;height:auto}',
  '.body pre{overflow-x:auto;background:var(--card);padding:.75rem;border-radius:6px}',
  '.body table{display:block;overflow-x:auto;border-collapse:collapse}',
  '.body th,.body td{border:1px solid var(--line);padding:.25rem .5rem}',
  '.body blockquote{margin:0;padding-left:1rem;border-left:3px solid var(--line);color:var(--muted)}',
].join('');

/** Sends the ids of the entries on screen once, and each press of an entry's button (fetch keepalive). */
const SCRIPT = [
  '(function(){',
  'function send(u,b){try{fetch(u,{method:"POST",keepalive:true,headers:{"Content-Type":"application/json"},body:JSON.stringify(b||{})})}catch(e){}}',
  'var seen=document.body.getAttribute("data-seen");',
  'var ids=Array.prototype.map.call(document.querySelectorAll("article[data-entry-id]"),function(a){return a.getAttribute("data-entry-id")}).slice(0,50);',
  'if(seen&&ids.length)send(seen,{entry_ids:ids});',
  'document.addEventListener("click",function(e){var a=e.target&&e.target.closest?e.target.closest("a[data-click]"):null;if(a)send(a.getAttribute("data-click"))});',
  '})();',
].join('');

const hashSource = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * Images may come from any https host (covers and body images are the owner's, by the spec's
 * image rule); the script may only call this origin; forms go only here; no one frames the page.
 */
export const CHANGELOG_PAGE_CSP = [
  "default-src 'none'",
  `style-src ${hashSource(STYLE)}`,
  `script-src ${hashSource(SCRIPT)}`,
  'img-src https: data:',
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

const LAYOUT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<link rel="icon" href="data:,"><title>{{title}}</title>
{{#canonical}}<link rel="canonical" href="{{canonical}}">
{{/canonical}}{{#feeds}}<link rel="alternate" type="application/rss+xml" title="{{projectName}} changelog (RSS)" href="{{rss}}">
<link rel="alternate" type="application/atom+xml" title="{{projectName}} changelog (Atom)" href="{{atom}}">
<link rel="alternate" type="application/feed+json" title="{{projectName}} changelog (JSON Feed)" href="{{json}}">
{{/feeds}}<style>${STYLE}</style>
</head>
<body{{#seenPath}} data-seen="{{seenPath}}"{{/seenPath}}><main>
{{> content}}
</main>{{#seenPath}}<script>${SCRIPT}</script>{{/seenPath}}</body></html>
`;

export interface LayoutView {
  title: string;
  projectName: string;
  canonical?: string | null;
  feeds?: { rss: string; atom: string; json: string } | null;
  /** Where the script posts the ids of the entries shown; no script without it. */
  seenPath?: string | null;
}

/** The page's HTML: `content` is a Mustache template rendered with `view` inside the layout. */
export function renderChangelogHtml(content: string, view: LayoutView & Record<string, unknown>): string {
  return render(LAYOUT, view, { content }, { escape: escapeHtml });
}
