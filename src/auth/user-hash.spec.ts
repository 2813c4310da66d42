import { createHmac } from 'node:crypto';
import { matchesUserHash, userHashOf } from './user-hash';

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

  it('hashes the user id as UTF-8', () => {
    const expected = createHmac('sha256', secret).update(Buffer.from('zoë', 'utf8')).digest('hex');
    expect(userHashOf('zoë', secret)).toBe(expected);
  });
});
