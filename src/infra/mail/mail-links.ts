import { Parser } from 'htmlparser2';

// An http(s) URL in plain text ends at whitespace, an angle bracket or a quote; trailing
// punctuation belongs to the sentence ("Confirm: https://…/confirm?token=x.").
const URL_IN_TEXT = /https?:\/\/[^\s<>"']+/g;
const TRAILING_PUNCTUATION = /[.,;:!?)\]]+$/;

function linksInText(text: string): string[] {
  return (text.match(URL_IN_TEXT) ?? []).map((url) => url.replace(TRAILING_PUNCTUATION, ''));
}

// Every spelling of an href attribute (any case), and the one spelling the shortcut below reads:
// lower case, double quotes, a value without character references.
const HREF_ANYHOW = /href/gi;
const PLAIN_HREF = /\shref="([^"&]*)"/g;

/**
 * Whether the HTML body's links are all among `known`, read without parsing it: true only when
 * every "href" in the body is a plain `href="…"` attribute whose value is already known, so the
 * parser could add nothing to the list. (Parsing each kept email's HTML cost the worker about a
 * tenth of its CPU per waitlist signup in the npm start configuration; the confirmation email's
 * HTML links are its text body's.) Anything else, even an href in a comment, takes the parser.
 */
function htmlAddsNoLink(html: string, known: ReadonlySet<string>): boolean {
  const plain = [...html.matchAll(PLAIN_HREF)];
  if (plain.length !== (html.match(HREF_ANYHOW) ?? []).length) return false;
  return plain.every(([, href]) => known.has(href) || !/^https?:\/\//i.test(href));
}

function linksInHtml(html: string): string[] {
  const links: string[] = [];
  const parser = new Parser({
    onopentag(_name, attributes) {
      if (attributes.href && /^https?:\/\//i.test(attributes.href)) links.push(attributes.href);
    },
  });
  parser.write(html);
  parser.end();
  return links;
}

/**
 * The http(s) links of an email, in the order they appear, each once: the text body's, then any
 * that only the HTML body has. A newcomer reads them to follow a confirmation link without SMTP.
 */
export function linksInMail(text: string, html: string | null): string[] {
  const links = new Set(linksInText(text));
  if (html && !htmlAddsNoLink(html, links)) for (const link of linksInHtml(html)) links.add(link);
  return [...links];
}
