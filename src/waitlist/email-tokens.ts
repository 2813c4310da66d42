import { IssuedToken, issueLinkToken } from '../common/email-links/link-tokens';

/** What a link token may do; a token of one purpose never works for the other. */
export type EmailTokenPurpose = 'confirm' | 'unsubscribe';

/** A stored token: the row of waitlist_email_tokens. */
export interface EmailTokenRow {
  tokenHash: string;
  projectId: string;
  signupId: string;
  purpose: EmailTokenPurpose;
  createdAt: Date;
}

/** The links of one confirmation email, and the rows that make them work. */
export interface ConfirmationTokens {
  confirm: string;
  unsubscribe: string;
  rows: EmailTokenRow[];
}

type TokenOwner = { id: string; projectId: string };

function tokenRow(owner: TokenOwner, purpose: EmailTokenPurpose, issued: IssuedToken, now: Date): EmailTokenRow {
  return { tokenHash: issued.hash, projectId: owner.projectId, signupId: owner.id, purpose, createdAt: now };
}

/** Fresh confirm and unsubscribe tokens for one confirmation email; every email gets its own. */
export function issueConfirmationTokens(signup: TokenOwner, now: Date): ConfirmationTokens {
  const confirm = issueLinkToken();
  const unsubscribe = issueLinkToken();
  return {
    confirm: confirm.token,
    unsubscribe: unsubscribe.token,
    rows: [tokenRow(signup, 'confirm', confirm, now), tokenRow(signup, 'unsubscribe', unsubscribe, now)],
  };
}

/** A fresh unsubscribe token for one email to one signup. */
export function issueUnsubscribeToken(signup: TokenOwner, now: Date): { token: string; row: EmailTokenRow } {
  const issued = issueLinkToken();
  return { token: issued.token, row: tokenRow(signup, 'unsubscribe', issued, now) };
}

export function confirmUrl(baseUrl: string, token: string): string {
  return `${baseUrl}/v1/waitlist/confirm?token=${token}`;
}

export function unsubscribeUrl(baseUrl: string, token: string): string {
  return `${baseUrl}/v1/waitlist/unsubscribe?token=${token}`;
}
