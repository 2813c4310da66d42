import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isPublicUnicast } from './public-address';

/** The callback of `dns.lookup`: one address (with its family) or, with `all`, the list. */
export type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
/** `dns.lookup`'s shape, which `net.connect`'s and undici's `connect.lookup` option expects. */
export type LookupFunction = (hostname: string, options: LookupOptions, callback: LookupCallback) => void;

/** A webhook host resolved to an address it may not connect to; the delivery records the message. */
export class NonPublicAddressError extends Error {
  readonly code = 'ERR_WEBHOOK_NON_PUBLIC_ADDRESS';
}

interface PublicOnlyLookupOptions {
  /** WEBHOOK_ALLOW_INSECURE_URLS: every address passes (loopback receivers in tests and development). */
  readonly allowInsecureUrls: boolean;
  /** The underlying resolver; `dns.lookup` unless a test passes its own. */
  readonly lookup?: (
    hostname: string,
    options: LookupOptions & { all: true },
    callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
  ) => void;
}

/**
 * The DNS lookup of a webhook connection (issue 11: the address checked is the address connected
 * to). Pass it as undici's `connect: { lookup }`: the socket connects only to what this lookup
 * returned, so a hostname that passed at create time and now resolves to 10.0.0.1 (DNS rebinding,
 * or a changed record) is refused on the spot, before a byte is sent.
 *
 * It resolves every address (A and AAAA) and refuses the connection when ANY of them is not public
 * unicast (isPublicUnicast: private, loopback, link-local, IPv4-mapped ::ffff:10.x, …), the same
 * rule as at create time: a mixed answer is how rebinding attacks hide. The error message names the
 * host and the address, and is what the delivery log shows.
 */
export function createPublicOnlyLookup(options: PublicOnlyLookupOptions): LookupFunction {
  const resolve = options.lookup ?? (dnsLookup as unknown as NonNullable<PublicOnlyLookupOptions['lookup']>);
  return (hostname, lookupOptions, callback) => {
    resolve(hostname, { ...lookupOptions, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const list = addresses ?? [];
      if (list.length === 0) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
      const refused = options.allowInsecureUrls ? undefined : list.find((entry) => !isPublicUnicast(entry.address));
      if (refused) {
        return callback(
          new NonPublicAddressError(`${hostname} resolves to ${refused.address}, which is not a public address; the webhook was not sent.`),
          [],
        );
      }
      if (lookupOptions.all) return callback(null, list);
      return callback(null, list[0].address, list[0].family);
    });
  };
}

/** The production lookup: public addresses only. Use createPublicOnlyLookup to honour WEBHOOK_ALLOW_INSECURE_URLS. */
export const publicOnlyLookup: LookupFunction = createPublicOnlyLookup({ allowInsecureUrls: false });
