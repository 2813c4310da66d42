import { parseTrustProxy } from './trust-proxy';

describe('parseTrustProxy', () => {
  it('reads false and 0 as "no proxy", and true as one hop', () => {
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('0')).toBe(false);
    expect(parseTrustProxy('true')).toBe(1);
  });

  it('reads a hop count', () => {
    expect(parseTrustProxy('1')).toBe(1);
    expect(parseTrustProxy(' 3 ')).toBe(3);
  });

  it("reads a list of the proxies' addresses and CIDRs, IPv6 and Express's range names included", () => {
    expect(parseTrustProxy('10.0.0.0/8, 192.0.2.7,2001:db8::/32 ,::1, loopback,uniquelocal,')).toEqual([
      '10.0.0.0/8',
      '192.0.2.7',
      '2001:db8::/32',
      '::1',
      'loopback',
      'uniquelocal',
    ]);
  });

  it('refuses anything else', () => {
    for (const value of [
      'yes',
      '-1',
      '1.5',
      '10.0.0.0/33',
      '2001:db8::/129',
      '300.1.1.1',
      '010.0.0.1',
      '0x7f.1',
      '10.0.0.0/8,proxy',
      ',',
      'all',
    ]) {
      expect({ value, parsed: parseTrustProxy(value) }).toEqual({ value, parsed: null });
    }
  });
});
