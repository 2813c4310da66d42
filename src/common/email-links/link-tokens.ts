import { createHash, randomBytes } from 'node:crypto';
import { patternKind } from '../http/path-param.pipe';

/**
 * The tokens behind links in emails (confirm, unsubscribe, manage topics), shared by every module
 * that sends such emails. A token is 32 random bytes (base64url: unguessable, URL-safe); only its
 * SHA-256 is stored, so a database leak gives no working link. Each module keeps its own token
 * table, with one purpose per token, and looks tokens up by `hashLinkToken`.
 */
export interface IssuedToken {
  /** Goes into the link; never stored. */
  token: string;
  /** SHA-256 hex of the token: what the database keeps and looks up. */
  hash: string;
}

/** A token in a path; the length bound is the one `?token=` has (EmailTokenQueryDto). */
export const LINK_TOKEN_PARAM = patternKind({
  pattern: /^[A-Za-z0-9_-]{1,128}$/,
  example: 'q3J0cWx1Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2Q',
  mismatch: 'This link token is unknown.',
  remediation: 'Open the link from the email again, or copy the whole address.',
});

export function hashLinkToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function issueLinkToken(): IssuedToken {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashLinkToken(token) };
}

/**
 * Mail clients show their own unsubscribe button for these headers, and large mailbox providers
 * expect them; the POST (RFC 8058 one-click) goes to the same link.
 */
export function oneClickUnsubscribe(link: string): Record<string, string> {
  return { 'List-Unsubscribe': `<${link}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}
