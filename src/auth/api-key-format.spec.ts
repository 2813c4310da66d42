import { randomBase62 } from '../common/ids/random-base62';
import { KEY_BODY_LENGTH, classifyBearer, generateApiKey, hashApiKey, isPublishableKey, keyPrefixOf } from './api-key-format';

describe('api key format', () => {
  it('tells publishable keys (live and test) from secret ones, legacy included', () => {
    expect(isPublishableKey(generateApiKey('publishable', 'live'))).toBe(true);
    expect(isPublishableKey(generateApiKey('publishable', 'test'))).toBe(true);
    expect(isPublishableKey(generateApiKey('secret', 'live'))).toBe(false);
    expect(isPublishableKey(generateApiKey('secret', 'test'))).toBe(false);
    expect(isPublishableKey(`sk_live_${randomBase62(24)}`)).toBe(false);
    expect(isPublishableKey('svc_pub_other_x')).toBe(false);
  });

  it('generates keys with the spec prefixes and 32 base62 characters', () => {
    expect(generateApiKey('secret', 'live')).toMatch(/^svc_live_[0-9A-Za-z]{32}$/);
    expect(generateApiKey('secret', 'test')).toMatch(/^svc_test_[0-9A-Za-z]{32}$/);
    expect(generateApiKey('publishable', 'live')).toMatch(/^svc_pub_live_[0-9A-Za-z]{32}$/);
  });

  it('never repeats and uses the whole alphabet', () => {
    const seen = new Set(Array.from({ length: 200 }, () => randomBase62(KEY_BODY_LENGTH)));
    expect(seen.size).toBe(200);
    const characters = new Set([...seen].join(''));
    expect(characters.size).toBe(62);
  });

  it('hashes with SHA-256 hex', () => {
    expect(hashApiKey('svc_live_x')).toHaveLength(64);
    expect(hashApiKey('a')).toBe('ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb');
  });

  it('reads the visible prefix, including the legacy one', () => {
    expect(keyPrefixOf('svc_pub_live_abc')).toBe('svc_pub_live_');
    expect(keyPrefixOf('svc_test_abc')).toBe('svc_test_');
    expect(keyPrefixOf('sk_live_abc')).toBe('sk_live_');
  });

  it('tells keys from JWTs', () => {
    expect(classifyBearer(generateApiKey('secret', 'live'))).toBe('api_key');
    expect(classifyBearer('sk_live_0123456789abcdefABCDEF')).toBe('api_key');
    expect(classifyBearer('eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1In0.c2ln')).toBe('jwt');
    expect(classifyBearer('hello world')).toBe('unknown');
  });
});
