import MarkdownIt from 'markdown-it';
import { Parser } from 'htmlparser2';

type Token = MarkdownIt.Token;

/**
 * Where a link or an image in markdown may point (spec: Limits, images and links). Checked on
 * write, so an owner learns at once; the renderer (markdown-render.ts) sanitizes again on output.
 *
 * - Images (markdown images, `<img src>`, `srcset`, `poster`): `https://` only.
 * - Links (markdown links, autolinks, reference definitions used or not, raw HTML `href`,
 *   `action`, `formaction`, `xlink:href`): http(s), `mailto:`, a path (`/docs`, `./guide`,
 *   `guide.html`) or an anchor (`#usage`). `javascript:`, `data:`, `vbscript:`, `file:` and every
 *   other scheme are refused, as are `//host` links, which name no scheme at all.
 *
 * Schemes are read the way a browser reads them: entities decoded, ASCII whitespace and control
 * characters dropped, case ignored, so `JaVa&#115;cript:` or `java\tscript:` is caught too.
 */
interface MarkdownLinkProblem {
  kind: 'link' | 'image';
  url: string;
  reason: string;
}

const LINK_SCHEMES = new Set(['http', 'https', 'mailto']);
const IMAGE_SCHEMES = new Set(['https']);
const LINK_ATTRIBUTES = new Set(['href', 'action', 'formaction', 'xlink:href', 'cite', 'background']);
const IMAGE_ATTRIBUTES = new Set(['src', 'poster', 'data']);

// A parser that keeps every link, whatever its scheme: markdown-it's own validateLink would drop the
// very links we are looking for, and raw HTML must come through as tokens to be inspected.
const scanner = new MarkdownIt({ html: true, linkify: false });
scanner.validateLink = () => true;

function schemeOf(url: string): { scheme: string | null; networkPath: boolean } {
  // eslint-disable-next-line no-control-regex
  const cleaned = url.replace(/[\u0000-\u0020\u007f]/g, '').toLowerCase();
  const match = /^([a-z][a-z0-9+.-]*):/.exec(cleaned);
  if (match) return { scheme: match[1], networkPath: false };
  // Browsers treat "\\" like "/" in a path's start.
  return { scheme: null, networkPath: /^[/\\]{2}/.test(cleaned) };
}

function decodePercentScheme(url: string): string {
  // A scheme is never percent-encoded; decoding only the start keeps "java%73cript:" from hiding one.
  try {
    return decodeURIComponent(url.slice(0, 64)) + url.slice(64);
  } catch {
    return url;
  }
}

/** Why `url` may not be used as a link (or image), or null when it may. */
export function unsafeUrlReason(url: string, kind: 'link' | 'image'): string | null {
  const { scheme, networkPath } = schemeOf(decodePercentScheme(url));
  if (kind === 'image') {
    return scheme && IMAGE_SCHEMES.has(scheme) ? null : 'images must be https:// links';
  }
  if (networkPath) return 'links must be http(s), mailto:, a path or an anchor (a link starting with // names no scheme)';
  if (scheme === null || LINK_SCHEMES.has(scheme)) return null;
  return `links must be http(s), mailto:, a path or an anchor (${scheme}: is not allowed)`;
}

function* srcsetUrls(value: string): Generator<string> {
  for (const candidate of value.split(',')) {
    const url = candidate.trim().split(/\s+/)[0];
    if (url) yield url;
  }
}

function htmlUrls(html: string, found: (kind: 'link' | 'image', url: string) => void): void {
  const parser = new Parser(
    {
      onopentag(_name, attributes) {
        for (const [name, value] of Object.entries(attributes)) {
          const attribute = name.toLowerCase();
          if (LINK_ATTRIBUTES.has(attribute)) found('link', value);
          else if (IMAGE_ATTRIBUTES.has(attribute)) found('image', value);
          else if (attribute === 'srcset') for (const url of srcsetUrls(value)) found('image', url);
        }
      },
    },
    { decodeEntities: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
}

function visit(tokens: Token[], found: (kind: 'link' | 'image', url: string) => void): void {
  for (const token of tokens) {
    if (token.type === 'link_open') found('link', String(token.attrGet('href') ?? ''));
    else if (token.type === 'image') found('image', String(token.attrGet('src') ?? ''));
    else if (token.type === 'html_inline' || token.type === 'html_block') htmlUrls(token.content, found);
    if (token.children) visit(token.children, found);
  }
}

/** Every link and image in `markdown` that breaks the rules above, in document order. */
export function findUnsafeMarkdownLinks(markdown: string): MarkdownLinkProblem[] {
  const problems: MarkdownLinkProblem[] = [];
  const found = (kind: 'link' | 'image', url: string) => {
    const reason = unsafeUrlReason(url, kind);
    if (reason) problems.push({ kind, url, reason });
  };
  const env: { references?: Record<string, { href: string; title: string }> } = {};
  visit(scanner.parse(markdown, env), found);
  // Reference definitions count even when nothing uses them: the text still carries the link.
  for (const reference of Object.values(env.references ?? {})) found('link', reference.href);
  return problems;
}
