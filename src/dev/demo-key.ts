import { createHmac } from 'node:crypto';
import { KEY_BODY_LENGTH, KEY_PREFIXES } from '../auth/api-key-format';
import { BASE62 } from '../common/ids/random-base62';

/**
 * The demo page's publishable key for a project: derived, not random, from the server's
 * ENCRYPTION_KEY and the project id (HMAC-SHA256, one base62 character per byte). Keys are stored
 * hashed, so a page cannot read back one that was issued earlier; a derived key is the same in every
 * process and after every restart, so the page stores it once (ApiKeysService.ensurePublishableKey)
 * and never piles up keys against the plan's cap, and no key is kept in clear anywhere. Whoever
 * holds ENCRYPTION_KEY can compute it, and a publishable key is public by design anyway.
 */
export function demoPublishableKey(encryptionKey: Buffer, projectId: string): string {
  const digest = createHmac('sha256', encryptionKey).update(`launch-service demo publishable key\0${projectId}`, 'utf8').digest();
  let body = '';
  // 32 bytes of digest, 32 characters: the bias of `% 62` is irrelevant for a public key.
  for (let index = 0; index < KEY_BODY_LENGTH; index += 1) body += BASE62[digest[index] % BASE62.length];
  return `${KEY_PREFIXES.publishable.live}${body}`;
}
