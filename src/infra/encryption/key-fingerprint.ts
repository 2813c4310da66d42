import { createHmac } from 'node:crypto';

// A fixed label: the fingerprint is a MAC of it under the key, so it says nothing about the key.
const FINGERPRINT_LABEL = 'launch-service encryption key fingerprint v1';

/**
 * What the database records of ENCRYPTION_KEY: HMAC-SHA256 of a fixed label keyed with it, 64 hex
 * characters. HMAC is a pseudorandom function: without the key its output cannot be told from
 * random, and it gives nothing to start a search of 2^256 keys from, so the stored value shows only
 * whether a key is the same one, never the key or anything sealed with it.
 */
export function keyFingerprint(key: Buffer): string {
  return createHmac('sha256', key).update(FINGERPRINT_LABEL, 'utf8').digest('hex');
}

/** The first characters, enough for a person to compare two fingerprints in a log line. */
export function shortFingerprint(fingerprint: string): string {
  return fingerprint.slice(0, 12);
}
