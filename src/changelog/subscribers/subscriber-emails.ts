import { render } from 'mustache';
import { escapeHtml } from '../../common/html/html-page';
import { markdownToText, renderMarkdown } from '../../common/markdown/markdown-render';
import { SafeHtml } from '../../common/markdown/safe-html';

/**
 * The texts of the changelog's subscriber emails: plain text plus HTML from Mustache templates.
 * Every `{{value}}` is escaped, except a SafeHtml (the sanitized markdown body), which the escape
 * function lets through: the templates never use Mustache's unescaped forms (a unit test checks).
 */
export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

/**
 * Bodies were checked when written, and the HTML renderer sanitizes again; an email is read far
 * from our pages, so a third wall for rows written before a rule existed or straight into the
 * database: refused schemes (`javascript:`, `vbscript:`, `data:<type>/…`, `file:/`) lose their
 * scheme wherever they appear (a link to `blocked:` has no target once sanitized), and the text
 * part keeps no markup the owner typed (markdown shows raw HTML as text). Ordinary words such as
 * "data:" or "file:" followed by text stay as they are.
 */
const REFUSED_SCHEMES = /\b(?:java|vb)script\s*:|\bdata\s*:\s*[a-z]+\/[a-z0-9.+-]+|\bfile\s*:\s*\//gi;

export function withoutRefusedSchemes(text: string): string {
  return text.replace(REFUSED_SCHEMES, 'blocked:');
}

function emailText(markdown: string): string {
  const text = markdownToText(withoutRefusedSchemes(markdown))
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<\/?[a-z][^>]*>/gi, '');
  // Again after decoding: entities (`&#106;avascript:`) only become letters in the text.
  return withoutRefusedSchemes(text);
}

// Replacing letters inside sanitized HTML adds no markup, so the result is still safe HTML; after
// rendering, entities are decoded text, which the replacement then sees.
function emailHtmlBody(markdown: string): SafeHtml {
  return SafeHtml.fromSanitized(withoutRefusedSchemes(renderMarkdown(withoutRefusedSchemes(markdown)).html));
}

const escapeEmailValue = (value: unknown): string => (value instanceof SafeHtml ? value.html : escapeHtml(value));

const LAYOUT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{subject}}</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 560px; margin: 2rem auto; padding: 0 1rem; color: #111; line-height: 1.5">
{{> content}}
<hr style="border: 0; border-top: 1px solid #ddd; margin: 2rem 0 1rem">
<p style="font-size: .85rem; color: #555">{{footer}}
<a href="{{preferencesUrl}}">Choose your topics</a> · <a href="{{unsubscribeUrl}}">Unsubscribe</a></p>
</body></html>
`;

function renderEmail(content: string, view: object): string {
  return render(LAYOUT, view, { content }, { escape: escapeEmailValue });
}

export interface ConfirmationEmailInput {
  projectName: string;
  confirmUrl: string;
  unsubscribeUrl: string;
  preferencesUrl: string;
}

const CONFIRMATION = `<h1 style="font-size: 1.4rem">{{subject}}</h1>
<p>Someone (we hope you) asked to get the {{projectName}} changelog by email.</p>
<p><a href="{{confirmUrl}}">Confirm your subscription</a></p>
<p>If this was not you, ignore this email: nothing is sent until the address is confirmed.</p>`;

export function confirmationEmail(input: ConfirmationEmailInput): RenderedEmail {
  const subject = `Confirm your subscription to the ${input.projectName} changelog`;
  const text = [
    `Someone (we hope you) asked to get the ${input.projectName} changelog by email.`,
    '',
    `Confirm your subscription: ${input.confirmUrl}`,
    '',
    'If this was not you, ignore this email: nothing is sent until the address is confirmed.',
    '',
    `Choose your topics: ${input.preferencesUrl}`,
    `Unsubscribe: ${input.unsubscribeUrl}`,
  ].join('\n');
  const footer = `You get this email because this address was entered to follow the ${input.projectName} changelog.`;
  const html = renderEmail(CONFIRMATION, { ...input, subject, footer });
  return { subject, text, html };
}

/** An entry's body, rendered once for a whole batch of emails. */
export interface EmailBody {
  text: string;
  html: SafeHtml;
}

export function emailBody(markdown: string): EmailBody {
  return { text: emailText(markdown), html: emailHtmlBody(markdown) };
}

export interface EntryEmailInput {
  projectName: string;
  title: string;
  version: string | null;
  body: EmailBody;
  publicUrl: string;
  unsubscribeUrl: string;
  preferencesUrl: string;
}

const ENTRY = `<p style="font-size: .85rem; color: #555">{{projectName}} changelog{{#version}} · {{version}}{{/version}}</p>
<h1 style="font-size: 1.4rem"><a href="{{publicUrl}}" style="color: inherit">{{title}}</a></h1>
{{body}}
<p><a href="{{publicUrl}}">Read it online</a></p>`;

/** The subject: the entry's title, with its version when it has one. */
export function entryEmailSubject(title: string, version: string | null): string {
  return version ? `${title} (${version})` : title;
}

/** One published entry for one subscriber. The body goes through the sanitizing renderer only. */
export function entryEmail(input: EntryEmailInput): RenderedEmail {
  const subject = entryEmailSubject(input.title, input.version);
  const text = [
    subject,
    '',
    input.body.text,
    '',
    `Read it online: ${input.publicUrl}`,
    '',
    `You follow the ${input.projectName} changelog.`,
    `Choose your topics: ${input.preferencesUrl}`,
    `Unsubscribe: ${input.unsubscribeUrl}`,
  ].join('\n');
  const footer = `You get this email because you follow the ${input.projectName} changelog.`;
  const html = renderEmail(ENTRY, { ...input, subject, footer, body: input.body.html });
  return { subject, text, html };
}
