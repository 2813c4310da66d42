import { createHmac, timingSafeEqual } from 'node:crypto';

const HEX_SHA256 = /^[0-9a-f]{64}$/;

/**
 * `user_hash` (spec: Notification identity verification): the HMAC-SHA256 of the `user_id`
 * string, keyed with the whole signing secret including its prefix, as lowercase hex.
 */
export function userHashOf(userId: string, secret: string): string {
  return createHmac('sha256', secret).update(userId, 'utf8').digest('hex');
}

/**
 * Whether `hash` is the user hash of `userId` under any of `secrets`. Every secret is tried and
 * compared in constant time, so the answer's timing says nothing about which part matched. Upper-case
 * hex is accepted (a hash is a number, whatever the casing a library prints it with).
 */
export function matchesUserHash(userId: string, hash: string, secrets: readonly string[]): boolean {
  const given = hash.toLowerCase();
  if (!HEX_SHA256.test(given)) return false;
  const givenBytes = Buffer.from(given, 'hex');
  let matched = false;
  for (const secret of secrets) {
    const expected = Buffer.from(userHashOf(userId, secret), 'hex');
    // The comparison comes first, so it runs for every secret: no early exit.
    matched = timingSafeEqual(expected, givenBytes) || matched;
  }
  return matched;
}
