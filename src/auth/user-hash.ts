import { createHmac, timingSafeEqual } from 'node:crypto';
import { BoundedMap } from '../common/cache/bounded-map';

const HEX_SHA256 = /^[0-9a-f]{64}$/;

/**
 * `user_hash` (spec: Notification identity verification): the HMAC-SHA256 of the `user_id`
 * string, keyed with the whole signing secret including its prefix, as lowercase hex.
 */
export function userHashOf(userId: string, secret: string): string {
  return createHmac('sha256', secret).update(userId, 'utf8').digest('hex');
}

/**
 * The secret of `secrets` that `hash` is the user hash of `userId` under, or null. Every secret is
 * tried and compared in constant time, so the answer's timing says nothing about which part
 * matched. Upper-case hex is accepted (a hash is a number, whatever the casing a library prints it with).
 */
export function matchingSecret(userId: string, hash: string, secrets: readonly string[]): string | null {
  const given = hash.toLowerCase();
  if (!HEX_SHA256.test(given)) return null;
  const givenBytes = Buffer.from(given, 'hex');
  let matched: string | null = null;
  for (const secret of secrets) {
    const expected = Buffer.from(userHashOf(userId, secret), 'hex');
    // The comparison comes first, so it runs for every secret: no early exit.
    if (timingSafeEqual(expected, givenBytes) && matched === null) matched = secret;
  }
  return matched;
}

/** Checks that passed, kept at most: a few megabytes. */
const MAX_PASSED_CHECKS = 50_000;

/**
 * `user_hash` checks with a memory of those that passed: a browser sends the same `user_id` and
 * `user_hash` with every poll, and the HMAC is the costliest step of its authentication. A pair
 * that passed is answered from memory while the secret it matched is still one of `secrets`, so a
 * rotation (or the end of the previous secret's grace) takes effect on the next request, as before.
 * Only passed pairs are kept, under the pair as sent: a wrong hash always takes the full check, and
 * a lookup by an attacker's guess costs the same whatever the right hash is (the map compares whole
 * keys, found by their hash, never a guess against the right value). A hash is not a secret (every
 * browser of that person holds it); the map holds no secret either, only references to the
 * project's secrets, which the process holds anyway.
 */
export class UserHashChecks {
  private readonly passed = new BoundedMap<string, string>(MAX_PASSED_CHECKS);

  matches(userId: string, hash: string, secrets: readonly string[]): boolean {
    const key = `${userId}\u0000${hash.toLowerCase()}`;
    const remembered = this.passed.get(key);
    if (remembered !== undefined && secrets.includes(remembered)) return true;
    const secret = matchingSecret(userId, hash, secrets);
    if (secret === null) return false;
    this.passed.set(key, secret);
    return true;
  }
}
