import { isIP } from 'node:net';

const HOSTNAME_MAX_LENGTH = 253;
const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** The TXT record name that proves control of a hostname. */
export const verificationRecordName = (hostname: string) => `_launch-service.${hostname}`;
/** The TXT record value for a domain's token. */
export const verificationRecordValue = (token: string) => `launch-service-verification=${token}`;

/** Lower-cased, without surrounding spaces or the root's trailing dot. */
export function normalizeHostname(input: string): string {
  return input.trim().toLowerCase().replace(/\.$/, '');
}

/**
 * Why `hostname` (normalized) cannot be a custom domain, or null when it can: a DNS name of at
 * least two labels (letters, digits, inner hyphens, 1 to 63 characters each) with an alphabetic
 * top-level label, not an IP address, and not one of our own hosts or below them (`ours`: the hosts
 * of PUBLIC_BASE_URL, CDN_URL and the CNAME target).
 */
export function hostnameProblem(hostname: string, ours: readonly string[]): string | null {
  if (hostname === '') return 'must not be empty';
  if (hostname.length > HOSTNAME_MAX_LENGTH) return `must be at most ${HOSTNAME_MAX_LENGTH} characters`;
  if (isIP(hostname) !== 0 || isIP(hostname.replace(/^\[|\]$/g, '')) !== 0) return 'must be a DNS name, not an IP address';
  if (/[:/?#@\s]/.test(hostname)) return 'must be a bare hostname, without scheme, port, path or credentials';
  const labels = hostname.split('.');
  if (labels.length < 2) return 'must have at least two labels, such as changelog.example.com';
  if (!labels.every((label) => LABEL.test(label))) return 'must use only letters, digits and inner hyphens, 1 to 63 characters per label';
  if (!/^[a-z]{2,63}$|^xn--[a-z0-9-]+$/.test(labels[labels.length - 1])) return 'must end in a real top-level domain';
  const own = ours.find((host) => hostname === host || hostname.endsWith(`.${host}`));
  if (own) return `must not be ${own} or one of its subdomains: that host is this service's own`;
  return null;
}
