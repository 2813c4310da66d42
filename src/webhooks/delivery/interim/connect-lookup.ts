import { type LookupAddress, type LookupAllOptions, lookup } from 'node:dns';
import { isPublicUnicast } from '../../url-policy/public-address';

/*
 * INTERIM copy, owned by the endpoints helper at src/webhooks/url-policy/connect-lookup.ts: same
 * name and signature. The lead replaces imports of this file with that one at merge.
 */

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `dns.lookup`-compatible function for the HTTP client's connect step: it resolves the name and
 * refuses it when any address is not public unicast, so the address checked is the address
 * connected to (no DNS-rebinding gap between a check and the connection).
 */
export function publicOnlyLookup(hostname: string, options: object, callback: LookupCallback): void {
  const wanted = options as { all?: boolean; family?: number };
  lookup(hostname, { ...(options as LookupAllOptions), all: true }, (error, addresses) => {
    if (error) return callback(error, wanted.all ? [] : '');
    const refused = addresses.find((entry) => !isPublicUnicast(entry.address));
    if (refused || addresses.length === 0) {
      const denied: NodeJS.ErrnoException = new Error(`${hostname} resolves to a non-public address (${refused?.address ?? 'none'})`);
      denied.code = 'ENOTFOUND';
      return callback(denied, wanted.all ? [] : '');
    }
    if (wanted.all) return callback(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
}
