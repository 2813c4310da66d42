import { isPublicUnicast } from './public-address';

describe('isPublicUnicast', () => {
  it.each([
    ['public IPv4', '93.184.216.34'],
    ['public IPv4', '8.8.8.8'],
    ['public IPv6', '2606:4700:4700::1111'],
    ['IPv4-mapped public address', '::ffff:93.184.216.34'],
    ['IPv4-mapped public address in hex', '::ffff:5db8:d822'],
    ['NAT64 well-known prefix wrapping a public IPv4 (DNS64)', '64:ff9b::93.184.216.34'],
    ['NAT64 well-known prefix in hex', '64:ff9b::808:808'],
  ])('lets %s through (%s)', (_kind, address) => {
    expect(isPublicUnicast(address)).toBe(true);
  });

  it.each([
    ['loopback', '127.0.0.1'],
    ['private', '10.1.2.3'],
    ['private', '172.16.0.1'],
    ['private', '192.168.1.1'],
    ['link-local (cloud metadata)', '169.254.169.254'],
    ['carrier-grade NAT', '100.64.0.1'],
    ['this network', '0.0.0.0'],
    ['broadcast', '255.255.255.255'],
    ['multicast', '224.0.0.1'],
    ['documentation', '192.0.2.1'],
    ['benchmarking', '198.18.0.1'],
    ['reserved class E', '240.0.0.1'],
    ['IPv6 loopback', '::1'],
    ['IPv6 unspecified', '::'],
    ['IPv6 link-local', 'fe80::1'],
    ['IPv6 link-local with a zone', 'fe80::1%eth0'],
    ['unique local', 'fc00::1'],
    ['unique local', 'fd12:3456::1'],
    ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
    ['IPv4-mapped private', '::ffff:10.0.0.1'],
    ['IPv4-mapped private in hex', '::ffff:a00:1'],
    ['IPv4-compatible public address', '::93.184.216.34'],
    ['IPv4-compatible public address in hex', '::5db8:d822'],
    ['IPv4-compatible loopback in hex', '::7f00:1'],
    ['IPv4-compatible private', '::10.0.0.1'],
    ['IPv4-compatible low address', '::0.0.0.2'],
    ['IPv4-translated (RFC 6145)', '::ffff:0:a00:1'],
    ['6to4 wrapping a private IPv4', '2002:a00:1::1'],
    ['6to4 wrapping a public IPv4', '2002:5db8:d822::1'],
    ['NAT64 well-known prefix wrapping a private IPv4', '64:ff9b::10.0.0.1'],
    ['NAT64 well-known prefix wrapping loopback', '64:ff9b::7f00:1'],
    ['NAT64 local-use prefix', '64:ff9b:1::a00:1'],
    ['Teredo', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
    ['site-local', 'fec0::1'],
    ['discard-only', '100::1'],
    ['ORCHID', '2001:10::1'],
    ['ORCHIDv2', '2001:20::1'],
    ['benchmarking', '2001:2::1'],
    ['documentation', '2001:db8::1'],
    ['documentation (3fff::/20)', '3fff::1'],
    ['multicast', 'ff02::1'],
    ['global multicast', 'ff0e::1'],
    ['unassigned outside 2000::/3', '4000::1'],
    ['unassigned next to the discard block', '100:0:0:1::1'],
    ['a hostname', 'example.com'],
    ['shorthand IPv4', '127.1'],
    ['not an address', 'not an address'],
  ])('refuses %s (%s)', (_kind, address) => {
    expect(isPublicUnicast(address)).toBe(false);
  });
});
