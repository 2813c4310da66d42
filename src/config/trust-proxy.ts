import ipaddr from 'ipaddr.js';

/**
 * Which peers may tell the client's address in X-Forwarded-For, in the form Express's
 * `trust proxy` setting takes: false (none: the socket's peer is the client), a number of proxy
 * hops in front of the API, or the proxies' addresses and CIDRs (Express's names `loopback`,
 * `linklocal` and `uniquelocal` included).
 */
export type TrustProxy = false | number | readonly string[];

const PROXY_RANGE_NAMES: ReadonlySet<string> = new Set(['loopback', 'linklocal', 'uniquelocal']);

export const TRUST_PROXY_FORMS =
  'false, a number of proxy hops (1 for one load balancer), or a comma-separated list of the proxies\' addresses or CIDRs such as "10.0.0.0/8,192.0.2.7" (loopback, linklocal and uniquelocal name those ranges)';

export const TRUST_PROXY_TRUE_WARNING =
  'TRUST_PROXY=true trusts exactly one proxy hop: the client address is the last one X-Forwarded-For names. ' +
  "Set TRUST_PROXY to the number of proxies in front of the API, or to the proxies' addresses or CIDRs, to say so precisely.";

/**
 * Addresses in the strict written forms only: `ipaddr.isValid` also takes `100` or `0x7f.1` as
 * IPv4, which would turn a mistyped hop count into a proxy address.
 */
function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  if (entry.includes('/')) return ipaddr.IPv4.isValidCIDRFourPartDecimal(entry) || ipaddr.IPv6.isValidCIDR(entry);
  return ipaddr.IPv4.isValidFourPartDecimal(entry) || ipaddr.IPv6.isValid(entry);
}

/**
 * TRUST_PROXY read: `true` is one hop (what a single load balancer needs, and never "everyone":
 * trusting every hop lets any client write its own address); `0` is the same as `false`.
 * Null when the value is none of the accepted forms.
 */
export function parseTrustProxy(value: string): TrustProxy | null {
  const text = value.trim();
  if (text === 'false') return false;
  if (text === 'true') return 1;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (!Number.isSafeInteger(hops)) return null;
    return hops === 0 ? false : hops;
  }
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length === 0 || !entries.every(isProxyAddress)) return null;
  return Object.freeze(entries);
}
