import { createHash, randomBytes } from 'node:crypto';

/** What a link token may do; a token of one purpose never works for the other. */
export type EmailTokenPurpose = 'confirm' | 'unsubscribe';

export interface IssuedToken {
  /** Goes into the link; never stored. */
  token: string;
  /** SHA-256 hex of the token: what the database keeps and looks up. */
  hash: string;
}

export function hashEmailToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** 32 random bytes, base64url: unguessable, URL-safe. */
export function issueEmailToken(): IssuedToken {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashEmailToken(token) };
}

export function confirmUrl(baseUrl: string, token: string): string {
  return `${baseUrl}/v1/waitlist/confirm?token=${token}`;
}

export function unsubscribeUrl(baseUrl: string, token: string): string {
  return `${baseUrl}/v1/waitlist/unsubscribe?token=${token}`;
}
