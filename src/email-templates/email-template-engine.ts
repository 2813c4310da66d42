import { Writer } from 'mustache';
import { escapeHtml } from '../common/html/html-page';
import { SafeHtml } from '../common/markdown/safe-html';
import type { EmailTemplateSpec, EmailTemplateText } from './email-template-catalog';

/**
 * The one renderer of every email the service sends to a project's people. A template is plain
 * text with Mustache placeholders (`{{confirm_url}}`, sections `{{#version}}…{{/version}}`):
 * - text part: the template with the values as they are;
 * - HTML part: the template's own words escaped, blank lines as paragraphs, every value escaped,
 *   values and literal text that are http(s) addresses as links, and the entry body as the
 *   sanitized HTML the markdown renderer made (the only unescaped value, a SafeHtml);
 * - subject: one line, values as they are (a header, not HTML).
 * Templates cannot use Mustache's unescaped forms, partials or delimiter changes (validation).
 */
const SUBJECT_MAX_LENGTH = 200;
const BODY_MAX_LENGTH = 20_000;

/** A value with a text form and a sanitized HTML form (the entry body). */
export interface EmailHtmlValue {
  text: string;
  html: SafeHtml;
}

export type EmailValues = Record<string, string | number | EmailHtmlValue>;

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

interface TemplateProblem {
  param: 'subject' | 'body';
  message: string;
}

type Token = [string, string, number, number, Token[]?];

// Parsed templates are not cached: owners' templates are many and change; parsing is microseconds.
function writer(): Writer {
  const instance = new Writer();
  (instance as unknown as { templateCache: undefined }).templateCache = undefined;
  return instance;
}

const URL_ONLY = /^https?:\/\/[^\s<>"']+$/;
const URL_IN_TEXT = /https?:\/\/[^\s<>"']+/g;

const link = (escapedUrl: string) => `<a href="${escapedUrl}">${escapedUrl}</a>`;

function htmlValue(value: unknown): string {
  if (value instanceof SafeHtml) return value.html;
  const text = String(value);
  return URL_ONLY.test(text) ? link(escapeHtml(text)) : escapeHtml(text);
}

/** The template's own words as HTML: escaped, addresses linked, blank lines as paragraphs. */
function literalHtml(text: string): string {
  return escapeHtml(text)
    .replace(URL_IN_TEXT, (url) => link(url))
    .replace(/\r\n?/g, '\n')
    .split(/\n{2,}/)
    .map((paragraph) => paragraph.replace(/\n/g, '<br>\n'))
    .join('</p>\n<p>');
}

function htmlTemplate(body: string): string {
  // Odd indexes are the Mustache tags (kept), even ones the literal text between them.
  return body
    .split(/(\{\{[\s\S]*?\}\})/)
    .map((part, index) => (index % 2 === 1 ? part : literalHtml(part)))
    .join('');
}

function views(values: EmailValues): { text: Record<string, unknown>; html: Record<string, unknown> } {
  const text: Record<string, unknown> = {};
  const html: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    const rich = typeof value === 'object';
    text[name] = rich ? value.text : String(value);
    html[name] = rich ? value.html : String(value);
  }
  return { text, html };
}

const LAYOUT_START =
  '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">\n';
const BODY_STYLE =
  'font-family: system-ui, sans-serif; max-width: 560px; margin: 2rem auto; padding: 0 1rem; color: #111; line-height: 1.5';

const PLAIN = { escape: (value: unknown) => String(value) };

/** A subject alone: one line, values as they are. */
export function renderEmailSubject(subject: string, values: EmailValues): string {
  return writer().render(subject, views(values).text, {}, PLAIN).replace(/\s+/g, ' ').trim();
}

export function renderEmailTemplate(template: EmailTemplateText, values: EmailValues): RenderedEmail {
  const view = views(values);
  const plain = PLAIN;
  const subject = renderEmailSubject(template.subject, values);
  const text = writer().render(template.body, view.text, {}, plain);
  const content = writer().render(htmlTemplate(template.body), view.html, {}, { escape: htmlValue });
  const html = `${LAYOUT_START}<title>${escapeHtml(subject)}</title></head>\n<body style="${BODY_STYLE}">\n<p>${content}</p>\n</body></html>\n`;
  return { subject, text, html };
}

/** Every placeholder name used, and those used outside any section. */
function namesIn(tokens: Token[], topLevel: boolean, used: Set<string>, top: Set<string>): string | null {
  for (const token of tokens) {
    const [type, value] = token;
    if (type === '&') return `{{{${value}}}} and {{&${value}}} are not allowed; use {{${value}}} (values are always escaped)`;
    if (type === '>') return `partials ({{> ${value}}}) are not allowed`;
    if (type === '=') return 'changing the delimiters is not allowed';
    if (type === 'name' || type === '#' || type === '^') {
      used.add(value);
      if (topLevel && type === 'name') top.add(value);
    }
    if ((type === '#' || type === '^') && token[4]) {
      const problem = namesIn(token[4], false, used, top);
      if (problem) return problem;
    }
  }
  return null;
}

function checkPart(param: 'subject' | 'body', source: string, spec: EmailTemplateSpec, maxLength: number): TemplateProblem | null {
  const fail = (message: string): TemplateProblem => ({ param, message: `${param} ${message}.` });
  if (source.trim() === '') return fail('must not be empty');
  if ([...source].length > maxLength) return fail(`must be at most ${maxLength} characters`);
  if (param === 'subject' && /[\r\n]/.test(source)) return fail('must be one line');
  let tokens: Token[];
  try {
    tokens = writer().parse(source) as Token[];
  } catch (error) {
    return fail(`is not a valid template: ${(error as Error).message.split('\n')[0]}`);
  }
  const used = new Set<string>();
  const top = new Set<string>();
  const problem = namesIn(tokens, true, used, top);
  if (problem) return fail(problem);
  const known = new Map(spec.placeholders.map((placeholder) => [placeholder.name, placeholder]));
  for (const name of used) {
    const placeholder = known.get(name);
    if (!placeholder)
      return fail(`uses the unknown placeholder {{${name}}}; this template knows ${[...known.keys()].map((n) => `{{${n}}}`).join(', ')}`);
    if (param === 'subject' && placeholder.html) return fail(`cannot use {{${name}}}, which is formatted text for the body`);
  }
  if (param === 'body') {
    const missing = spec.placeholders.find((placeholder) => placeholder.required && !top.has(placeholder.name));
    if (missing) return fail(`must contain {{${missing.name}}} outside any section (${missing.description})`);
  }
  return null;
}

/** The first problem of a template, subject before body; null when it can be saved. */
export function templateProblem(spec: EmailTemplateSpec, template: EmailTemplateText): TemplateProblem | null {
  return checkPart('subject', template.subject, spec, SUBJECT_MAX_LENGTH) ?? checkPart('body', template.body, spec, BODY_MAX_LENGTH);
}
