import { canonicalJson, isValidIdempotencyKey, requestFingerprint } from './idempotency-key';

describe('idempotency keys', () => {
  it('accepts 1 to 80 printable ASCII characters', () => {
    expect(isValidIdempotencyKey('a')).toBe(true);
    expect(isValidIdempotencyKey('k'.repeat(80))).toBe(true);
    expect(isValidIdempotencyKey('8e03978e-40d5-43e8-bc93-6894a57f9324')).toBe(true);
    expect(isValidIdempotencyKey('with space ~!')).toBe(true);
  });

  it('refuses empty, long and non-printable keys', () => {
    expect(isValidIdempotencyKey('')).toBe(false);
    expect(isValidIdempotencyKey('k'.repeat(81))).toBe(false);
    expect(isValidIdempotencyKey('tab\there')).toBe(false);
    expect(isValidIdempotencyKey('clé')).toBe(false);
  });

  it('treats reordered keys as the same body and changed values as different', () => {
    expect(canonicalJson({ b: [1, { d: 1, c: 2 }], a: null })).toBe('{"a":null,"b":[1,{"c":2,"d":1}]}');
    const first = requestFingerprint('post', '/v1/x', { a: 1, b: 2 });
    expect(requestFingerprint('POST', '/v1/x', { b: 2, a: 1 })).toBe(first);
    expect(requestFingerprint('POST', '/v1/x', { a: 1, b: 3 })).not.toBe(first);
    expect(requestFingerprint('POST', '/v1/y', { a: 1, b: 2 })).not.toBe(first);
  });
});
