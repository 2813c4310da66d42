import { randomFillSync } from 'node:crypto';
import { monotonicFactory } from 'ulid';

/**
 * Every id the service hands out is a fixed prefix, an underscore and a 26-character ULID
 * (uppercase Crockford base32). ULIDs sort by creation time, so "newest first" is "id descending".
 */
export const ID_PREFIXES = {
  project: 'prj',
  account: 'acct',
  apiKey: 'key',
  changelogEntry: 'ce',
  changelogSubscriber: 'sub',
  changelogLabel: 'lbl',
  changelogPublication: 'cpub',
  changelogMailing: 'cml',
  engagementBatch: 'ceb',
  waitlistSignup: 'ws',
  notification: 'ntf',
  notificationRelease: 'nrel',
  event: 'evt',
  request: 'req',
  contact: 'ct',
  feedback: 'fb',
  mail: 'mail',
  webhookEndpoint: 'we',
  webhookDelivery: 'whd',
  webhookDeliveryAttempt: 'wha',
  slugChange: 'slc',
  contactErasure: 'cer',
  customDomain: 'dom',
  revenueConnection: 'rvc',
  revenueSync: 'rvs',
  revenueMovement: 'rvm',
} as const;

export type IdPrefix = (typeof ID_PREFIXES)[keyof typeof ID_PREFIXES];

const ULID_PATTERN = '[0-9A-HJKMNP-TV-Z]{26}';

const POOL_SIZE = 4096;
const pool = Buffer.alloc(POOL_SIZE);
let poolOffset = POOL_SIZE;

/**
 * CSPRNG bytes drawn from a pooled buffer. ulid asks for one random number per character; a
 * system call for each of them made id generation (once per request, for the request id) a hot spot.
 */
function pooledRandom(): number {
  if (poolOffset >= POOL_SIZE) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const byte = pool[poolOffset];
  poolOffset += 1;
  return byte / 256;
}

// Monotonic: ids made in the same millisecond by this process still sort in creation order.
const ulid = monotonicFactory(pooledRandom);

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${ulid()}`;
}

export function idPattern(prefix: IdPrefix): RegExp {
  return new RegExp(`^${prefix}_${ULID_PATTERN}$`);
}

export function isId(prefix: IdPrefix, value: unknown): value is string {
  return typeof value === 'string' && idPattern(prefix).test(value);
}
