import { planLimit } from '../../src/projects/plans';
import { ApiKeysService } from '../../src/auth/api-keys.service';
import { ApiKeyEntity } from '../../src/auth/entities/api-key.entity';
import { hashApiKey } from '../../src/auth/api-key-format';
import { ProbeModule } from '../support/probe.module';
import { TestApp } from '../support/test-app';

describe('API key authentication', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start({ imports: [ProbeModule] });
  });
  afterAll(() => t.close());

  it('issues svc_live_ and svc_pub_live_ keys of 32 base62 characters', async () => {
    const project = await t.seedProject({ plan: 'indie' });
    expect(project.secretKey).toMatch(/^svc_live_[0-9A-Za-z]{32}$/);
    expect(project.publishableKey).toMatch(/^svc_pub_live_[0-9A-Za-z]{32}$/);
  });

  it('stores only hashes of the keys', async () => {
    const project = await t.seedProject({ plan: 'indie' });
    const rows = await t.db.manager.find(ApiKeyEntity, { where: { projectId: project.project.id } });
    expect(rows).toHaveLength(2);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(project.secretKey);
    expect(stored).not.toContain(project.publishableKey.slice(13));
    expect(rows.map((row) => row.secretHash).sort()).toEqual([hashApiKey(project.secretKey), hashApiKey(project.publishableKey)].sort());
    expect(rows.find((row) => row.type === 'secret')).toMatchObject({ prefix: 'svc_live_', lastFour: project.secretKey.slice(-4) });
  });

  it('answers MISSING_AUTH without an Authorization header', async () => {
    const res = await t.api.get('/v1/setup-check').expect(401);
    expect(res.body).toMatchObject({ data: null, error: { code: 'MISSING_AUTH', param: 'Authorization' } });
  });

  it('answers INVALID_API_KEY for an unknown key and for a malformed header', async () => {
    const unknown = await t.api
      .as(`svc_live_${'a'.repeat(32)}`)
      .get('/v1/setup-check')
      .expect(401);
    expect(unknown.body.error.code).toBe('INVALID_API_KEY');
    const malformed = await t.api.get('/v1/setup-check').set('Authorization', 'Token abc').expect(401);
    expect(malformed.body.error.code).toBe('INVALID_API_KEY');
    const garbage = await t.api.as('not-a-key').get('/v1/setup-check').expect(401);
    expect(garbage.body.error.code).toBe('INVALID_API_KEY');
  });

  it('answers REVOKED_API_KEY once a key is revoked', async () => {
    const project = await t.seedProject({ plan: 'indie' });
    const extra = await t.db.transaction((em) => t.get(ApiKeysService).createKey(em, project.project.id, 'secret'));
    await t.api.as(extra.key).get('/v1/setup-check').expect(200);
    await t.get(ApiKeysService).revokeKey(extra.key);
    const res = await t.api.as(extra.key).get('/v1/setup-check').expect(401);
    expect(res.body.error).toMatchObject({ code: 'REVOKED_API_KEY' });
  });

  it('refuses a publishable key on a secret endpoint with KEY_INSUFFICIENT_PERMISSIONS', async () => {
    const project = await t.seedProject({ plan: 'indie' });
    const res = await t.api.as(project.publishableKey).get('/v1/setup-check').expect(403);
    expect(res.body.error.code).toBe('KEY_INSUFFICIENT_PERMISSIONS');
  });

  it('accepts publishable and secret keys on browser endpoints', async () => {
    const project = await t.seedProject({ plan: 'indie' });
    await t.api.as(project.publishableKey).post('/v1/_probe/browser').expect(200);
    await t.api.as(project.secretKey).post('/v1/_probe/browser').expect(200);
  });

  it('answers WRONG_AUTH_TYPE for a JWT on a product endpoint', async () => {
    const res = await t.api.as('eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1c2VyIn0.c2lnbmF0dXJl').get('/v1/setup-check').expect(401);
    expect(res.body.error.code).toBe('WRONG_AUTH_TYPE');
  });

  it('accepts svc_test_ keys and the legacy sk_live_ prefix', async () => {
    const project = await t.seedProject({ plan: 'indie' });
    const testKey = await t.db.transaction((em) => t.get(ApiKeysService).createKey(em, project.project.id, 'secret', 'test'));
    expect(testKey.key).toMatch(/^svc_test_[0-9A-Za-z]{32}$/);
    await t.api.as(testKey.key).get('/v1/setup-check').expect(200);
    const legacy = `sk_live_${'L3gacy'.repeat(5)}ab`;
    await t.db.transaction((em) => t.get(ApiKeysService).importKey(em, project.project.id, legacy));
    const res = await t.api.as(legacy).get('/v1/setup-check').expect(200);
    expect(res.body.data.project_id).toBe(project.project.id);
  });

  it('caps active keys per type with API_KEY_LIMIT_REACHED', async () => {
    const other = await t.seedProject();
    const keys = t.get(ApiKeysService);
    const limit = planLimit('free', 'activePublishableKeys');
    for (let i = 1; i < limit; i += 1) await t.db.transaction((em) => keys.createKey(em, other.project.id, 'publishable'));
    await expect(t.db.transaction((em) => keys.createKey(em, other.project.id, 'publishable'))).rejects.toMatchObject({
      code: 'API_KEY_LIMIT_REACHED',
    });
    // Secret keys are counted separately.
    await t.db.transaction((em) => keys.createKey(em, other.project.id, 'secret'));
  });

  it('takes the project from the key, never from the request', async () => {
    const project = await t.seedProject({ plan: 'indie' });
    const other = await t.seedProject({ name: 'Other' });
    const res = await t.api.as(other.secretKey).get('/v1/setup-check').set('X-Service-Project', project.project.id).expect(200);
    expect(res.body.data.project_id).toBe(other.project.id);
  });

  it('accepts at once a key created after it was cached as unknown', async () => {
    const project = await t.seedProject();
    const legacy = `sk_live_${'N3gative'.repeat(3)}`;
    expect((await t.api.as(legacy).get('/v1/setup-check').expect(401)).body.error.code).toBe('INVALID_API_KEY');
    expect(t.get(ApiKeysService).cachedKey(legacy)).toBeNull();
    await t.db.transaction((em) => t.get(ApiKeysService).importKey(em, project.project.id, legacy));
    expect((await t.api.as(legacy).get('/v1/setup-check').expect(200)).body.data.project_id).toBe(project.project.id);
  });

  it('answers a repeated unknown key from the cache, without a lookup', async () => {
    const unknown = `svc_live_${'R'.repeat(32)}`;
    const lookups = jest.spyOn(t.get(ApiKeysService), 'authenticate');
    try {
      for (let i = 0; i < 3; i += 1) await t.api.as(unknown).get('/v1/setup-check').expect(401);
      expect(lookups).toHaveBeenCalledTimes(1);
    } finally {
      lookups.mockRestore();
    }
  });
});

describe('guessing API keys', () => {
  let t: TestApp;

  beforeAll(async () => {
    // The test client stands for a proxy one hop away: X-Forwarded-For names the address each test sends from.
    t = await TestApp.start({ env: { API_KEY_FAILURE_LIMIT: '5', TRUST_PROXY: '1' } });
  });
  afterAll(() => t.close());
  afterEach(() => t.clock.reset());

  /** A key of the right shape that was never issued; `tag` keeps each test's guesses its own. */
  const guess = (tag: string, i: number) => `svc_live_${`${tag}${i}`.padStart(32, 'G')}`;
  const setupCheck = (key: string, from: string) => t.api.as(key).get('/v1/setup-check').set('X-Forwarded-For', from);

  async function waitForChangeListener(): Promise<void> {
    for (let waited = 0; !t.get(ApiKeysService).invalidationListening; waited += 20) {
      if (waited > 10_000) throw new Error('the change listener did not start');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Sends the address's whole budget of unknown keys, then the one past it (answered 429). */
  async function exhaustBudget(tag: string, from: string | ((i: number) => string)): Promise<void> {
    const address = (i: number) => (typeof from === 'string' ? from : from(i));
    for (let i = 0; i < 5; i += 1) {
      expect((await setupCheck(guess(tag, i), address(i)).expect(401)).body.error.code).toBe('INVALID_API_KEY');
    }
    expect((await setupCheck(guess(tag, 5), address(5)).expect(429)).body.error.code).toBe('RATE_LIMITED');
  }

  it('answers RATE_LIMITED with Retry-After past the limit of unknown keys per address; repeated guesses cost no lookup', async () => {
    const project = await t.seedProject();
    const from = '203.0.113.40';
    // Known to this process (once the change listener is in place, which clears the cache).
    await setupCheck(project.secretKey, from).expect(200);
    await waitForChangeListener();
    await setupCheck(project.secretKey, from).expect(200);
    // Held still, so the unknown keys stay cached for as long as the test runs.
    t.clock.freeze();
    for (let i = 0; i < 5; i += 1) {
      expect((await setupCheck(guess('A', i), from).expect(401)).body.error.code).toBe('INVALID_API_KEY');
    }
    const limited = await setupCheck(guess('A', 5), from).expect(429);
    expect(limited.body).toMatchObject({ data: null, error: { code: 'RATE_LIMITED', param: 'Authorization' } });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);

    const lookups = jest.spyOn(t.get(ApiKeysService), 'authenticate');
    try {
      // Guesses this process already knows to be unknown: refused from the cache.
      for (let i = 0; i < 5; i += 1) {
        expect((await setupCheck(guess('A', i), from).expect(429)).body.error.code).toBe('RATE_LIMITED');
      }
      expect(lookups).not.toHaveBeenCalled();
      // A key never seen could be a valid one: one lookup tells, then it is refused as unknown.
      for (let i = 6; i < 9; i += 1) {
        expect((await setupCheck(guess('A', i), from).expect(429)).body.error.code).toBe('RATE_LIMITED');
      }
      expect(lookups).toHaveBeenCalledTimes(3);
    } finally {
      lookups.mockRestore();
    }
    // A key this process knows keeps working from the same address: only guesses are refused.
    expect((await setupCheck(project.secretKey, from).expect(200)).body.data.project_id).toBe(project.project.id);
  });

  it('answers a valid key from a blocked address even when this process has never seen it', async () => {
    const from = '198.51.100.50';
    await exhaustBudget('B', from);
    const late = await t.seedProject({ name: 'Created after the block' });
    expect(t.get(ApiKeysService).cachedKey(late.secretKey)).toBeUndefined();
    expect((await setupCheck(late.secretKey, from).expect(200)).body.data.project_id).toBe(late.project.id);
    // A revoked key is answered as revoked, not as a guess.
    await t.get(ApiKeysService).revokeKey(late.publishableKey);
    expect((await setupCheck(late.publishableKey, from).expect(401)).body.error.code).toBe('REVOKED_API_KEY');
    // Unknown keys stay refused, a new guess as well as a repeated one.
    for (const key of [guess('B', 0), guess('B', 9)]) {
      const refused = await setupCheck(key, from).expect(429);
      expect(refused.body.error).toMatchObject({ code: 'RATE_LIMITED', param: 'Authorization' });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }
  });

  it('counts IPv6 clients by their /64: addresses of one /64 share a budget, another /64 has its own', async () => {
    const sameNetwork = ['2001:db8:aa:1::1', '2001:db8:aa:1::2', '2001:db8:aa:1:ffff:ffff:ffff:fffe'];
    await exhaustBudget('C', (i) => sameNetwork[i % sameNetwork.length]);
    expect((await setupCheck(guess('C', 6), '2001:db8:aa:1:1234::9').expect(429)).body.error.code).toBe('RATE_LIMITED');
    expect((await setupCheck(guess('C', 7), '2001:db8:aa:2::1').expect(401)).body.error.code).toBe('INVALID_API_KEY');
  });
});
