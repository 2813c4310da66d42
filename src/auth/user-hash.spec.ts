import { createHmac } from 'node:crypto';
import { UserHashChecks, matchingSecret, userHashOf } from './user-hash';

const matchesUserHash = (userId: string, hash: string, secrets: readonly string[]) => matchingSecret(userId, hash, secrets) !== null;

describe('user hash', () => {
  const secret = 'svc_ntf_0123456789abcdefghijklmnopqrstuv';

  it('is the lowercase hex HMAC-SHA256 of the user id keyed with the whole secret', () => {
    const expected = createHmac('sha256', secret).update('user_42').digest('hex');
    expect(userHashOf('user_42', secret)).toBe(expected);
    expect(userHashOf('user_42', secret)).toMatch(/^[0-9a-f]{64}$/);
    expect(userHashOf('user_42', secret.slice('svc_ntf_'.length))).not.toBe(expected);
  });

  it('matches under any of the given secrets, in either hex case', () => {
    const hash = userHashOf('ada', secret);
    expect(matchesUserHash('ada', hash, [secret])).toBe(true);
    expect(matchesUserHash('ada', hash.toUpperCase(), [secret])).toBe(true);
    expect(matchesUserHash('ada', hash, ['svc_ntf_other', secret])).toBe(true);
  });

  it('refuses another user, another secret, malformed hashes and an empty secret list', () => {
    const hash = userHashOf('ada', secret);
    expect(matchesUserHash('bob', hash, [secret])).toBe(false);
    expect(matchesUserHash('ada', hash, ['svc_ntf_other'])).toBe(false);
    expect(matchesUserHash('ada', hash.slice(0, 63), [secret])).toBe(false);
    expect(matchesUserHash('ada', `${hash.slice(0, 63)}g`, [secret])).toBe(false);
    expect(matchesUserHash('ada', '', [secret])).toBe(false);
    expect(matchesUserHash('ada', hash, [])).toBe(false);
  });

  it('names the secret that matched, the first when both do', () => {
    const other = 'svc_ntf_ZYXWVUTSRQPONMLKJIHGFEDCBA987654';
    expect(matchingSecret('ada', userHashOf('ada', secret), [other, secret])).toBe(secret);
    expect(matchingSecret('ada', userHashOf('ada', other), [other, secret])).toBe(other);
    expect(matchingSecret('ada', userHashOf('ada', other), [secret, secret])).toBeNull();
  });

  describe('remembered checks', () => {
    const previous = 'svc_ntf_ZYXWVUTSRQPONMLKJIHGFEDCBA987654';

    it('answers as the full check does, for passing and failing pairs alike, again and again', () => {
      const checks = new UserHashChecks();
      const hash = userHashOf('ada', secret);
      for (let round = 0; round < 3; round += 1) {
        expect(checks.matches('ada', hash, [secret])).toBe(true);
        expect(checks.matches('ada', hash.toUpperCase(), [secret])).toBe(true);
        expect(checks.matches('bob', hash, [secret])).toBe(false);
        expect(checks.matches('ada', `${hash.slice(0, 63)}0`, [secret])).toBe(false);
      }
    });

    it('stops passing a pair the moment the secret it matched is no longer valid (rotation, end of grace)', () => {
      const checks = new UserHashChecks();
      const oldHash = userHashOf('ada', previous);
      expect(checks.matches('ada', oldHash, [secret, previous])).toBe(true);
      expect(checks.matches('ada', oldHash, [secret, previous])).toBe(true);
      expect(checks.matches('ada', oldHash, [secret])).toBe(false);
      expect(checks.matches('ada', userHashOf('ada', secret), [secret])).toBe(true);
      expect(checks.matches('ada', oldHash, [])).toBe(false);
    });

    it('does not mix up a user id ending like another pair (the hash is a fixed 64 hex characters)', () => {
      const checks = new UserHashChecks();
      const hash = userHashOf('ada', secret);
      expect(checks.matches('ada', hash, [secret])).toBe(true);
      expect(checks.matches(`ada\u0000${hash.slice(0, 32)}`, hash.slice(32), [secret])).toBe(false);
    });
  });

  it('hashes the user id as UTF-8', () => {
    const expected = createHmac('sha256', secret).update(Buffer.from('zoë', 'utf8')).digest('hex');
    expect(userHashOf('zoë', secret)).toBe(expected);
  });
});
