import { ROTATION_GRACE_MS, SIGNING_SECRET_PREFIX, generateSigningSecret, previousValidUntil } from './signing-secret-format';

describe('signing secret format', () => {
  it('is svc_ntf_ and 40 base62 characters, different every time', () => {
    const secrets = new Set(Array.from({ length: 50 }, () => generateSigningSecret()));
    expect(secrets.size).toBe(50);
    for (const secret of secrets) {
      expect(secret).toMatch(/^svc_ntf_[0-9A-Za-z]{40}$/);
      expect(secret.startsWith(SIGNING_SECRET_PREFIX)).toBe(true);
    }
  });

  it('keeps the previous secret valid for 24 hours after a rotation', () => {
    const at = new Date('2026-11-03T10:00:00Z');
    expect(ROTATION_GRACE_MS).toBe(86_400_000);
    expect(previousValidUntil(at).toISOString()).toBe('2026-11-04T10:00:00.000Z');
  });
});
