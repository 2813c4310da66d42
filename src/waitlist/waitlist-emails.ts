import { EMAIL_TEMPLATES, type EmailTemplateText } from '../email-templates/email-template-catalog';
import { type RenderedEmail, renderEmailTemplate } from '../email-templates/email-template-engine';

/**
 * The values of the waitlist emails; the texts are templates (email-templates/), rendered by the
 * one email renderer, which escapes every value in the HTML.
 */

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char);
}

interface ConfirmationEmailInput {
  projectName: string;
  position: number;
  confirmUrl: string;
  unsubscribeUrl: string;
  referralLink: string;
}

/** The double opt-in email: the project's own template when it has one, the default otherwise. */
export function confirmationEmail(input: ConfirmationEmailInput, template?: EmailTemplateText | null): RenderedEmail {
  return renderEmailTemplate(template ?? EMAIL_TEMPLATES.waitlist_confirmation.defaults, {
    project_name: input.projectName,
    position: input.position,
    confirm_url: input.confirmUrl,
    referral_link: input.referralLink,
    unsubscribe_url: input.unsubscribeUrl,
  });
}

interface InviteEmailInput {
  projectName: string;
  unsubscribeUrl: string;
}

export function inviteEmail(input: InviteEmailInput, template?: EmailTemplateText | null): RenderedEmail {
  return renderEmailTemplate(template ?? EMAIL_TEMPLATES.waitlist_invite.defaults, {
    project_name: input.projectName,
    unsubscribe_url: input.unsubscribeUrl,
  });
}
