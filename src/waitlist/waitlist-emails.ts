/**
 * The texts of the waitlist emails: plain text plus simple HTML. Every value that comes from a
 * person or a project is escaped in the HTML.
 */
export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char);
}

function layout(title: string, paragraphs: string[]): string {
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title></head>`,
    '<body style="font-family: system-ui, sans-serif; max-width: 560px; margin: 2rem auto; padding: 0 1rem; color: #111; line-height: 1.5">',
    `<h1 style="font-size: 1.4rem">${escapeHtml(title)}</h1>`,
    ...paragraphs.map((paragraph) => `<p>${paragraph}</p>`),
    '</body></html>',
  ].join('\n');
}

function link(url: string, label: string): string {
  return `<a href="${escapeHtml(url)}">${escapeHtml(label)}</a>`;
}

export interface ConfirmationEmailInput {
  projectName: string;
  position: number;
  confirmUrl: string;
  unsubscribeUrl: string;
  referralLink: string;
}

export function confirmationEmail(input: ConfirmationEmailInput): RenderedEmail {
  const subject = `Confirm your spot on the ${input.projectName} waitlist`;
  const text = [
    `You joined the ${input.projectName} waitlist at position ${input.position}.`,
    '',
    `Confirm your email address: ${input.confirmUrl}`,
    '',
    `Share your referral link: ${input.referralLink}`,
    '',
    `If this was not you, ignore this email, or unsubscribe: ${input.unsubscribeUrl}`,
  ].join('\n');
  const html = layout(subject, [
    `You joined the ${escapeHtml(input.projectName)} waitlist at position ${input.position}.`,
    link(input.confirmUrl, 'Confirm your email address'),
    `Share your referral link: ${link(input.referralLink, input.referralLink)}`,
    `<small>If this was not you, ignore this email, or ${link(input.unsubscribeUrl, 'unsubscribe')}.</small>`,
  ]);
  return { subject, text, html };
}

export interface InviteEmailInput {
  projectName: string;
  unsubscribeUrl: string;
}

export function inviteEmail(input: InviteEmailInput): RenderedEmail {
  const subject = `You're invited to ${input.projectName}`;
  const text = [
    `Good news: your spot on the ${input.projectName} waitlist has come up, and you are invited.`,
    `${input.projectName} will be in touch with how to get started.`,
    '',
    `No longer interested? Unsubscribe: ${input.unsubscribeUrl}`,
  ].join('\n');
  const html = layout(subject, [
    `Good news: your spot on the ${escapeHtml(input.projectName)} waitlist has come up, and you are invited.`,
    `${escapeHtml(input.projectName)} will be in touch with how to get started.`,
    `<small>No longer interested? ${link(input.unsubscribeUrl, 'Unsubscribe')}.</small>`,
  ]);
  return { subject, text, html };
}
