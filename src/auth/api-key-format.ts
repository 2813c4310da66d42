import { createHash } from 'node:crypto';
import { randomBase62 } from '../common/ids/random-base62';
import type { ApiKeyMode, ApiKeyType } from './entities/api-key.entity';

export const KEY_BODY_LENGTH = 32;

/** Current prefixes, and the legacy secret prefix the spec keeps accepting. */
export const KEY_PREFIXES: Record<ApiKeyType, Record<ApiKeyMode, string>> = {
  secret: { live: 'svc_live_', test: 'svc_test_' },
  publishable: { live: 'svc_pub_live_', test: 'svc_pub_test_' },
};

const API_KEY_SHAPE = /^(svc_live_|svc_test_|svc_pub_live_|svc_pub_test_|sk_live_)[A-Za-z0-9]{16,64}$/;
/** A live publishable key as this service issues it. */
export const PUBLISHABLE_LIVE_KEY_SHAPE = new RegExp(`^${KEY_PREFIXES.publishable.live}[A-Za-z0-9]{${KEY_BODY_LENGTH}}$`);
/** A key issued under the legacy prefix, as `key:import` accepts it (the shape the guard accepts). */
export const LEGACY_KEY_SHAPE = /^sk_live_[A-Za-z0-9]{16,64}$/;
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

export function generateApiKey(type: ApiKeyType, mode: ApiKeyMode): string {
  return `${KEY_PREFIXES[type][mode]}${randomBase62(KEY_BODY_LENGTH)}`;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Whether `key` is a publishable key (live or test): public by design, it sits in pages. */
export function isPublishableKey(key: string): boolean {
  return key.startsWith(KEY_PREFIXES.publishable.live) || key.startsWith(KEY_PREFIXES.publishable.test);
}

export function keyPrefixOf(key: string): string {
  const match = /^(svc_pub_(live|test)_|svc_(live|test)_|sk_live_)/.exec(key);
  return match ? match[1] : '';
}

type BearerKind = 'api_key' | 'jwt' | 'unknown';

/** Tells an API key from a JWT by shape, so mixing them up answers WRONG_AUTH_TYPE. */
export function classifyBearer(token: string): BearerKind {
  if (API_KEY_SHAPE.test(token)) return 'api_key';
  if (JWT_SHAPE.test(token)) return 'jwt';
  return 'unknown';
}
