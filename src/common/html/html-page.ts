import { createHash } from 'node:crypto';
import { render } from 'mustache';
import { RawReply } from '../http/reply';
import { SafeHtml } from '../markdown/safe-html';

/**
 * Small server-rendered pages (the pages behind email links, hosted forms). Templates are Mustache:
 * every `{{value}}` is HTML-escaped, so names and emails that people typed cannot become markup.
 * Templates never use Mustache's unescaped forms (triple braces, the ampersand tag); a unit test
 * checks the ones we ship. The pages need no script of their own: forms post, buttons are buttons.
 */

// One inline style block, allowed by its hash: no 'unsafe-inline', no stylesheet route. The empty
// data: icon keeps browsers from asking for /favicon.ico.
const STYLE = [
  'body{font-family:system-ui,sans-serif;max-width:560px;margin:2rem auto;padding:0 1rem;color:#111;line-height:1.5}',
  'h1{font-size:1.4rem}',
  'label{display:block;margin:1rem 0 .25rem}',
  'input[type=email]{width:100%;box-sizing:border-box;padding:.5rem;font-size:1rem}',
  'button{margin-top:1rem;padding:.5rem 1rem;font-size:1rem;cursor:pointer}',
  '.error{color:#a00}',
  '.link{word-break:break-all;font-family:ui-monospace,monospace}',
].join('');

/** The CSP source that allows the layout's one style block: for a page that writes its own policy. */
export const STYLE_SOURCE = `'sha256-${createHash('sha256').update(STYLE, 'utf8').digest('base64')}'`;

const LAYOUT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,"><title>{{title}}</title><style>${STYLE}</style>
{{#canonical}}<link rel="canonical" href="{{canonical}}">
{{/canonical}}{{#scripts}}<script src="{{.}}" async defer></script>
{{/scripts}}</head>
<body><main>
<h1>{{title}}</h1>
{{> content}}
</main></body></html>
`;

interface PageOptions {
  status?: number;
  /** Origins a third-party widget needs for its script and frame (the bot check). */
  widgetOrigins?: readonly string[];
  /** Script URLs to load; each must be on one of `widgetOrigins`. */
  scripts?: readonly string[];
  /** The page's own absolute address, for `<link rel="canonical">` (a public page that may be reached at several). */
  canonical?: string;
}

/**
 * Nothing loads but the page's own style; forms post only to this origin; no page frames it. A
 * widget (the bot check) adds its origin for scripts and frames, nothing more.
 */
export function pageContentSecurityPolicy(widgetOrigins: readonly string[] = []): string {
  const directives = [
    "default-src 'none'",
    `style-src ${STYLE_SOURCE}`,
    "img-src 'self' data:",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ];
  if (widgetOrigins.length > 0) directives.push(`script-src ${widgetOrigins.join(' ')}`, `frame-src ${widgetOrigins.join(' ')}`);
  return directives.join('; ');
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * The five characters that matter in text and in quoted attributes (every attribute here is
 * quoted). Mustache's default also encodes `/`, which makes links in the page source unreadable.
 * A `SafeHtml` (sanitized markdown, made only by the markdown renderer) is the one value written
 * as it is, so templates need no unescaped tags even for rendered bodies.
 */
export function escapeHtml(value: unknown): string {
  if (value instanceof SafeHtml) return value.html;
  return String(value).replace(/[&<>"']/g, (char) => ENTITIES[char]);
}

/** The page's HTML: `content` is a Mustache template rendered with `view` inside the layout. */
export function renderHtml(title: string, content: string, view: object, scripts: readonly string[] = [], canonical?: string): string {
  return render(LAYOUT, { ...view, title, scripts, canonical: canonical ?? null }, { content }, { escape: escapeHtml });
}

/**
 * A page as the handler's answer. Pages may carry tokens or personal data (a position, a referral
 * link), so no cache keeps them, and the Referer of a link followed from one leaves nothing behind.
 */
export function htmlPage(title: string, content: string, view: object = {}, options: PageOptions = {}): RawReply {
  return new RawReply(
    renderHtml(title, content, view, options.scripts, options.canonical),
    'text/html; charset=utf-8',
    options.status ?? 200,
    {
      'Content-Security-Policy': pageContentSecurityPolicy(options.widgetOrigins),
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
    },
  );
}
