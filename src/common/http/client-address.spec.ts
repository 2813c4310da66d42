import type { Request } from 'express';
import { clientAddressKey, clientIp } from './client-address';

describe('clientAddressKey', () => {
  it('keeps an IPv4 address whole', () => {
    expect(clientAddressKey('203.0.113.7')).toBe('203.0.113.7');
  });

  it('reads an IPv4-mapped IPv6 address as its IPv4 address', () => {
    expect(clientAddressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts IPv6 addresses of one /64 as one client', () => {
    const a = clientAddressKey('2001:db8:1:2:aaaa::1');
    const b = clientAddressKey('2001:db8:1:2:ffff:ffff:ffff:fffe');
    expect(a).toBe('2001:db8:1:2::/64');
    expect(b).toBe(a);
    expect(clientAddressKey('2001:db8:1:3::1')).not.toBe(a);
  });

  it('writes the /64 the same way whatever the spelling of the address', () => {
    expect(clientAddressKey('2001:0DB8:0001:0002::1')).toBe('2001:db8:1:2::/64');
  });

  it('gives every spelling of one address the same key', () => {
    expect(clientAddressKey('::FFFF:203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddressKey('::ffff:cb00:7107')).toBe('203.0.113.7');
    expect(clientAddressKey('2001:db8:1:2:0:0:0:1')).toBe(clientAddressKey('2001:db8:1:2::1'));
    // Leading zeros are octal to the address parser; never read as the plain address they resemble.
    expect(clientAddressKey('010.0.0.1')).toBe('8.0.0.1');
    for (let i = 0; i < 3; i += 1) expect(clientAddressKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
  });

  it('leaves something that is not an address as it is', () => {
    expect(clientAddressKey('unknown')).toBe('unknown');
  });
});

describe('clientIp', () => {
  it('prefers what Express read, then the socket peer', () => {
    expect(clientIp({ ip: '198.51.100.1', socket: { remoteAddress: '127.0.0.1' } } as unknown as Request)).toBe('198.51.100.1');
    expect(clientIp({ socket: { remoteAddress: '127.0.0.1' } } as unknown as Request)).toBe('127.0.0.1');
    expect(clientIp({ socket: {} } as unknown as Request)).toBe('unknown');
  });
});
