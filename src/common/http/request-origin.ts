import type { Request } from 'express';

// A hostname or bracketed IPv6 address, with an optional port: nothing that could break out of a
// header value, a CSP source list or a JSON string.
const HOST = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/**
 * The origin a browser used to reach this server: scheme and Host, or X-Forwarded-Proto and
 * X-Forwarded-Host when TRUST_PROXY trusts the peer (Express's `req.protocol` and `req.host` read
 * them under its `trust proxy` setting). Null when the host is missing or not a plain host name.
 */
export function requestOrigin(req: Request): string | null {
  const host = req.host;
  if (!host || !HOST.test(host)) return null;
  return `${req.protocol}://${host.toLowerCase()}`;
}
