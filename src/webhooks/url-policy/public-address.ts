import ipaddr from 'ipaddr.js';

/**
 * Whether a webhook may connect to `address` (spec: URL rules; issue: no private, loopback or
 * link-local address, even through DNS). Only globally routable unicast addresses pass: ipaddr.js
 * classifies every reserved range (private, loopback, link-local, carrier-grade NAT, multicast,
 * documentation, benchmarking, 6to4/Teredo relays, unique local, …) and an IPv4-mapped IPv6
 * address (`::ffff:10.0.0.1`) is judged as the IPv4 address it carries.
 */
export function isPublicUnicast(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  return parsed.range() === 'unicast';
}
