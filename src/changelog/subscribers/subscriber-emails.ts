import { markdownToText, renderMarkdown } from '../../common/markdown/markdown-render';
import { SafeHtml } from '../../common/markdown/safe-html';
import { EMAIL_TEMPLATES, type EmailTemplateText } from '../../email-templates/email-template-catalog';
import { type RenderedEmail, renderEmailSubject, renderEmailTemplate } from '../../email-templates/email-template-engine';

/**
 * The values of the changelog's subscriber emails. The texts are templates (email-templates/),
 * rendered by the one email renderer: every `{{value}}` is escaped in the HTML except the entry
 * body, a SafeHtml made by the sanitizing markdown renderer.
 */

/**
 * Bodies were checked when written, and the HTML renderer sanitizes again; an email is read far
 * from our pages, so a third wall for rows written before a rule existed or straight into the
 * database: refused schemes (`javascript:`, `vbscript:`, `data:<type>/…`, `file:/`) lose their
 * scheme wherever they appear (a link to `blocked:` has no target once sanitized), and the text
 * part keeps no markup the owner typed (markdown shows raw HTML as text). Ordinary words such as
 * "data:" or "file:" followed by text stay as they are.
 */
const REFUSED_SCHEMES = /\b(?:java|vb)script\s*:|\bdata\s*:\s*[a-z]+\/[a-z0-9.+-]+|\bfile\s*:\s*\//gi;

function withoutRefusedSchemes(text: string): string {
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

interface ConfirmationEmailInput {
  projectName: string;
  confirmUrl: string;
  unsubscribeUrl: string;
  preferencesUrl: string;
}

export function confirmationEmail(input: ConfirmationEmailInput, template?: EmailTemplateText | null): RenderedEmail {
  return renderEmailTemplate(template ?? EMAIL_TEMPLATES.changelog_subscriber_confirmation.defaults, {
    project_name: input.projectName,
    confirm_url: input.confirmUrl,
    preferences_url: input.preferencesUrl,
    unsubscribe_url: input.unsubscribeUrl,
  });
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

/** The default subject: the entry's title, with its version when it has one. */
export function entryEmailSubject(title: string, version: string | null): string {
  return renderEmailSubject(EMAIL_TEMPLATES.changelog_entry.defaults.subject, { title, version: version ?? '' });
}

/** One published entry for one subscriber. The body goes through the sanitizing renderer only. */
export function entryEmail(input: EntryEmailInput, template?: EmailTemplateText | null): RenderedEmail {
  return renderEmailTemplate(template ?? EMAIL_TEMPLATES.changelog_entry.defaults, {
    project_name: input.projectName,
    title: input.title,
    version: input.version ?? '',
    entry_body: input.body,
    public_url: input.publicUrl,
    preferences_url: input.preferencesUrl,
    unsubscribe_url: input.unsubscribeUrl,
  });
}
