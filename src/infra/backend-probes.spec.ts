import { StartupFailure, describeTarget, probePostgres, probeRedis, reasonOf } from './backend-probes';

describe('describeTarget', () => {
  it('names host, port, database and user, never the password', () => {
    expect(describeTarget('postgres://ada:s3cret@db.internal:6543/launch', 5432)).toBe('db.internal:6543 (database "launch", user "ada")');
    expect(describeTarget('redis://:s3cret@cache', 6379)).toBe('cache:6379');
    expect(describeTarget('not a url', 5432)).toBe('(an address that is not a URL)');
  });
});

describe('reasonOf', () => {
  it('says what the usual codes mean', () => {
    expect(reasonOf(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }))).toBe(
      'ECONNREFUSED, connection refused (nothing listens on that port)',
    );
    expect(reasonOf(Object.assign(new Error('password authentication failed for user "ada"'), { code: '28P01' }))).toBe(
      'authentication failed (wrong password): password authentication failed for user "ada"',
    );
    expect(reasonOf(new Error('WRONGPASS invalid username-password pair or user is disabled.'))).toMatch(
      /^authentication failed: WRONGPASS/,
    );
  });
});

describe('probes', () => {
  it('fail with the setting, the address and the reason in one line', async () => {
    const postgres = await probePostgres('postgres://ada:s3cret@127.0.0.1:1/launch', 2_000).catch((error: unknown) => error);
    expect(postgres).toBeInstanceOf(StartupFailure);
    expect(postgres).toMatchObject({ setting: 'DATABASE_URL', reason: expect.stringContaining('ECONNREFUSED') });
    const redis = await probeRedis('redis://:s3cret@127.0.0.1:1', 2_000).catch((error: unknown) => error);
    expect(redis).toMatchObject({ setting: 'REDIS_URL', reason: expect.stringContaining('ECONNREFUSED') });
    for (const failure of [postgres, redis]) {
      expect((failure as Error).message).not.toContain('s3cret');
      expect((failure as Error).message).not.toContain('\n');
    }
  });
});
