import { randomBytes } from 'node:crypto';
import { keyFingerprint, shortFingerprint } from './key-fingerprint';

describe('keyFingerprint', () => {
  it('is the same for the same key, different for another, and contains nothing of the key', () => {
    const key = randomBytes(32);
    const fingerprint = keyFingerprint(key);
    expect(fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(keyFingerprint(Buffer.from(key))).toBe(fingerprint);
    expect(keyFingerprint(randomBytes(32))).not.toBe(fingerprint);
    expect(fingerprint).not.toContain(key.toString('hex').slice(0, 8));
    expect(shortFingerprint(fingerprint)).toBe(fingerprint.slice(0, 12));
  });

  it('never changes: every installation compares its key against what an earlier version recorded', () => {
    expect(keyFingerprint(Buffer.alloc(32, 1))).toBe('6a2913862072094320cceb9468298c0e89a53a7138a5bab32f97c80e14abe094');
  });
});
