import { isIP } from 'node:net';
import type { WebhookFormat } from '../entities/webhook-endpoint.entity';

/** A URL rule the given URL breaks; its message names the rule (spec: INVALID_WEBHOOK_URL). */
export class UrlRuleViolation extends Error {}

interface UrlRuleOptions {
  /** WEBHOOK_ALLOW_INSECURE_URLS: http, IP literals, internal names and any port pass (development and tests). */
  readonly allowInsecureUrls: boolean;
}

/** The longest URL accepted; chat URLs are ~120 characters, anything near this is a mistake. */
export const WEBHOOK_URL_MAX_LENGTH = 2048;

/**
 * Names that never point at the public internet (ours, from RFC 6761 / RFC 6762 / RFC 8375 and
 * names routers and companies use by habit). A hostname equal to one of them, or ending in
 * `.<name>`, is refused. `.example` and `.test` are refused too: they are reserved and cannot be a
 * real receiver. `example.com` and friends are not: they resolve to public addresses.
 */
const INTERNAL_NAME_SUFFIXES = [
  'localhost',
  'localdomain',
  'local',
  'internal',
  'intranet',
  'private',
  'corp',
  'home',
  'lan',
  'test',
  'invalid',
  'example',
  'onion',
  'arpa',
] as const;

// Hostnames that look like numbers (decimal, hex or octal labels): some resolvers read them as
// IPv4 addresses even where the WHATWG parser did not turn them into one.
const NUMERIC_HOST = /^(0x[0-9a-f]*|[0-9]+)(\.(0x[0-9a-f]*|[0-9]+))*$/i;

const CHAT_A_HOSTS = ['hooks.slack.com', 'hooks.slack-gov.com'];
const CHAT_A_PATH = /^\/services\/T[A-Z0-9]+\/B[A-Z0-9]+\/[A-Za-z0-9]+\/?$/;
const CHAT_B_HOSTS = ['discord.com', 'discordapp.com'].flatMap((host) => [host, `ptb.${host}`, `canary.${host}`]);
const CHAT_B_PATH = /^\/api(\/v\d+)?\/webhooks\/\d+\/[A-Za-z0-9_-]+\/?$/;

/** The chat format whose incoming-webhook shape `url` has, or null. */
export function chatFormatOf(url: URL): Exclude<WebhookFormat, 'json'> | null {
  if (CHAT_A_HOSTS.includes(url.hostname) && CHAT_A_PATH.test(url.pathname)) return 'chat_a';
  if (CHAT_B_HOSTS.includes(url.hostname) && CHAT_B_PATH.test(url.pathname)) return 'chat_b';
  return null;
}

/** The hostname without IPv6 brackets or a trailing root dot, lower-cased (the parser lower-cases). */
export function bareHostname(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
}

/**
 * The rules a webhook URL must pass before any DNS lookup (spec: Endpoints → Webhooks, URL rules).
 * Returns the parsed URL; throws UrlRuleViolation naming the first broken rule.
 */
export function checkWebhookUrl(raw: string, format: WebhookFormat, options: UrlRuleOptions): URL {
  if (raw.length > WEBHOOK_URL_MAX_LENGTH) throw new UrlRuleViolation(`The URL must be at most ${WEBHOOK_URL_MAX_LENGTH} characters.`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UrlRuleViolation('The URL must be an absolute URL such as https://hooks.example.com/launch.');
  }
  const insecure = options.allowInsecureUrls;
  if (url.protocol !== 'https:' && !(insecure && url.protocol === 'http:')) {
    throw new UrlRuleViolation(`The URL must use https:// (got ${url.protocol.slice(0, 20)}//).`);
  }
  if (url.username || url.password) throw new UrlRuleViolation('The URL must not contain a username or password.');
  if (url.port && !insecure) throw new UrlRuleViolation(`The URL must use the default https port 443, not :${url.port}.`);
  const host = bareHostname(url);
  if (!insecure) checkHostname(host);
  checkChatShape(url, format, insecure);
  return url;
}

function checkHostname(host: string): void {
  if (isIP(host) || NUMERIC_HOST.test(host)) {
    throw new UrlRuleViolation(`The URL must use a public hostname, not an IP address (${host.slice(0, 60)}).`);
  }
  if (!host.includes('.')) {
    throw new UrlRuleViolation(`The URL must use a public hostname; "${host.slice(0, 60)}" is a single-label (internal) name.`);
  }
  const internal = INTERNAL_NAME_SUFFIXES.find((suffix) => host === suffix || host.endsWith(`.${suffix}`));
  if (internal) throw new UrlRuleViolation(`The URL must use a public hostname; .${internal} names are internal.`);
}

/**
 * A chat format needs that service's incoming-webhook URL. With insecure URLs allowed (tests and
 * development, where the receiver is local), any host passes but the path must still have the
 * service's shape, so the rule stays visible. A recognised chat URL sent with format json is
 * accepted as json: the owner may want the signed envelope (a relay, say).
 */
function checkChatShape(url: URL, format: WebhookFormat, insecure: boolean): void {
  if (format === 'chat_a') {
    const hostOk = insecure || CHAT_A_HOSTS.includes(url.hostname);
    if (!hostOk || !CHAT_A_PATH.test(url.pathname)) {
      throw new UrlRuleViolation('A chat_a endpoint needs a Slack-style incoming webhook URL: https://hooks.slack.com/services/T…/B…/….');
    }
  }
  if (format === 'chat_b') {
    const hostOk = insecure || CHAT_B_HOSTS.includes(url.hostname);
    if (!hostOk || !CHAT_B_PATH.test(url.pathname)) {
      throw new UrlRuleViolation('A chat_b endpoint needs a Discord-style webhook URL: https://discord.com/api/webhooks/<id>/<token>.');
    }
  }
}

/**
 * What answers show instead of the URL: scheme and host, then `/…/` and the last 4 characters of
 * the rest (path and query), so an owner can tell two endpoints apart without the secret part.
 * A rest of fewer than 12 characters shows only `/…`: its last 4 would give too much of it away.
 * No URL ever shows its query, credentials or fragment in full.
 */
export function maskWebhookUrl(url: URL): string {
  const origin = `${url.protocol}//${url.host}`;
  const rest = `${url.pathname}${url.search}`.replace(/^\//, '');
  if (rest === '') return `${origin}/`;
  if (rest.length < 12) return `${origin}/…`;
  return `${origin}/…/${rest.slice(-4)}`;
}
