import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';
import { SafeHtml } from './safe-html';

/**
 * Markdown to HTML for every reader-facing surface (hosted page, feeds, emails). markdown-it runs
 * with raw HTML off, so tags typed in a body come out as text; sanitize-html then keeps only the
 * tags and attributes markdown itself produces, links to http(s), mailto and relative targets,
 * images from https only. The write-time check (markdown-links.ts) already refused bad links;
 * this is the second wall, for anything stored before a rule existed or that slips past one.
 */
const markdown = new MarkdownIt({ html: false, linkify: true, typographer: false });

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'hr',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'blockquote',
    'pre',
    'code',
    'em',
    'strong',
    's',
    'del',
    'ul',
    'ol',
    'li',
    'a',
    'img',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
  ],
  allowedAttributes: { a: ['href', 'title', 'rel'], img: ['src', 'alt', 'title'], ol: ['start'], th: ['style'], td: ['style'] },
  allowedStyles: { th: { 'text-align': [/^(left|right|center)$/] }, td: { 'text-align': [/^(left|right|center)$/] } },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['https'] },
  allowProtocolRelative: false,
  // An image whose source was refused would be an empty box.
  exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
  transformTags: {
    // Links in owners' text lead off the page: no referrer leak, no window.opener, no SEO vouching.
    a: sanitizeHtml.simpleTransform('a', { rel: 'nofollow noopener noreferrer' }),
  },
};

/** Sanitized HTML of a markdown body. */
export function renderMarkdown(source: string): SafeHtml {
  return SafeHtml.fromSanitized(sanitizeHtml(markdown.render(source), SANITIZE));
}

/** The text of a markdown body without markup, whitespace collapsed: for text emails, excerpts, chat. */
export function markdownToText(source: string): string {
  const html = markdown.render(source).replace(/<\/(p|h[1-6]|li|blockquote|pre|tr)>/g, '$&\n');
  return sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} })
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/[ \t]+/g, ' ')
    .replace(/\n\s*\n+/g, '\n\n')
    .trim();
}

/** At most `max` characters of the body's text, cut at a word with an ellipsis. */
export function markdownExcerpt(source: string, max = 280): string {
  const text = markdownToText(source).replace(/\s+/g, ' ');
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
