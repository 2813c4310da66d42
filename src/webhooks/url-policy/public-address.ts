import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** 2000::/3, the only IPv6 space allocated for global unicast; everything outside it is special or unassigned. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
/** NAT64's well-known prefix: the gateway connects to the IPv4 address in the last 32 bits. */
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96');

/**
 * Whether a webhook may connect to `address` (spec: URL rules; no private, loopback or link-local
 * address, even through DNS). Only globally routable unicast addresses pass. ipaddr.js classifies
 * the reserved IPv4 ranges (private, loopback, link-local, carrier-grade NAT, multicast,
 * documentation, benchmarking, …). For IPv6:
 * - an IPv4-mapped address (`::ffff:10.0.0.1`) and a NAT64 well-known-prefix address
 *   (`64:ff9b::10.0.0.1`) reach the IPv4 address they carry, so they are judged as that address
 *   (an IPv6-only host behind DNS64 reaches every IPv4 receiver this way);
 * - everything else must be plain unicast inside 2000::/3. That refuses the IPv4-compatible
 *   `::a.b.c.d` (::/96, deprecated, and some stacks still tunnel it to the IPv4 address), the
 *   translated `::ffff:0:a.b.c.d`, site-local, discard, unique local, link-local, multicast and all
 *   unassigned space, and inside 2000::/3 the tunnel and special blocks ipaddr.js names: 6to4
 *   (2002::/16, which may wrap a private IPv4), Teredo (2001::/32), the local-use NAT64 prefix
 *   64:ff9b:1::/48 (operator-chosen layout), ORCHID, benchmarking and documentation.
 */
export function isPublicUnicast(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return isPublicV4(ipaddr.IPv4.parse(address));
  if (family !== 6) return false;
  const parsed = parseV6(address);
  if (!parsed) return false;
  if (parsed.isIPv4MappedAddress()) return isPublicV4(parsed.toIPv4Address());
  if (parsed.match(NAT64_WELL_KNOWN)) return isPublicV4(embeddedV4(parsed));
  return parsed.match(GLOBAL_UNICAST_V6) && parsed.range() === 'unicast';
}

function isPublicV4(parsed: ipaddr.IPv4): boolean {
  return parsed.range() === 'unicast';
}

/**
 * The IPv6 address as the socket layer reads it. ipaddr.js reads the dotted `::a.b.c.d` as
 * `::ffff:a.b.c.d`, a different address; the WHATWG URL host serializer writes every IPv6 address
 * in plain hex groups first. A zone (`%eth0`) only qualifies link-local addresses, refused anyway.
 */
function parseV6(address: string): ipaddr.IPv6 | undefined {
  const withoutZone = address.split('%')[0];
  try {
    const host = new URL(`http://[${withoutZone}]/`).hostname;
    return ipaddr.IPv6.parse(host.slice(1, -1));
  } catch {
    return undefined;
  }
}

function embeddedV4(parsed: ipaddr.IPv6): ipaddr.IPv4 {
  const bytes = parsed.toByteArray();
  return new ipaddr.IPv4(bytes.slice(12));
}
