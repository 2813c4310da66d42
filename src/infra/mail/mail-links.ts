import { Parser } from 'htmlparser2';

// An http(s) URL in plain text ends at whitespace, an angle bracket or a quote; trailing
// punctuation belongs to the sentence ("Confirm: https://…/confirm?token=x.").
const URL_IN_TEXT = /https?:\/\/[^\s<>"']+/g;
const TRAILING_PUNCTUATION = /[.,;:!?)\]]+$/;

function linksInText(text: string): string[] {
  return (text.match(URL_IN_TEXT) ?? []).map((url) => url.replace(TRAILING_PUNCTUATION, ''));
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
  return [...new Set([...linksInText(text), ...(html ? linksInHtml(html) : [])])];
}
