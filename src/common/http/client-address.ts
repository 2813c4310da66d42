import ipaddr from 'ipaddr.js';
import type { Request } from 'express';
import { BoundedMap } from '../cache/bounded-map';

/**
 * The address a request came from, as Express reads it under the configured `trust proxy`
 * setting (TRUST_PROXY), or the socket's peer when Express has none.
 */
export function clientIp(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

const IPV4_OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
/** An IPv4 address as Node writes a peer (no leading zeros), alone or mapped into IPv6: already its own key. */
const PLAIN_IPV4 = new RegExp(`^(?:::ffff:)?(${IPV4_OCTET}(?:\\.${IPV4_OCTET}){3})$`, 'i');
/** Parsing an address costs microseconds, on every limited request: keys of recent other spellings are kept. */
const MAX_REMEMBERED_KEYS = 10_000;
const rememberedKeys = new BoundedMap<string, string>(MAX_REMEMBERED_KEYS);

/**
 * The key under which per-address limits count a client. One IPv6 subscriber holds a whole /64
 * (and picks new addresses inside it at will), so IPv6 clients count by their /64; an IPv4
 * address written as IPv6 (`::ffff:1.2.3.4`) counts as that IPv4 address. Anything that is not
 * an address is its own key.
 */
export function clientAddressKey(ip: string): string {
  const plain = PLAIN_IPV4.exec(ip);
  if (plain) return plain[1];
  let key = rememberedKeys.get(ip);
  if (key === undefined) {
    key = parsedAddressKey(ip);
    rememberedKeys.set(ip, key);
  }
  return key;
}

function parsedAddressKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const parsed = ipaddr.process(ip);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${parts.map((part) => part.toString(16)).join(':')}::/64`;
}
