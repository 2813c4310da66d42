import { ConfigError, loadConfig, logFormatOf } from './app-config';
import { parseDurationList } from './durations';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      databaseUrl: null,
      embeddedDatabase: true,
      redisUrl: null,
      publicBaseUrl: 'http://localhost:3000',
      cdnUrl: 'http://localhost:3000',
      jwt: null,
      encryptionKey: null,
      smtpUrl: null,
      mailFrom: 'Launch Service <no-reply@localhost>',
      turnstile: { secret: null, verifyUrl: 'https://challenges.cloudflare.com/turnstile/v0/siteverify' },
      webhooks: { retryDelaysMs: [60_000, 300_000, 1_800_000, 7_200_000, 21_600_000], timeoutMs: 10_000, allowInsecureUrls: false },
      logLevel: 'info',
      workers: true,
      trustProxy: false,
      trustProxyWarning: null,
      startWarnings: [],
    });
    expect(config.dataDir).toMatch(/\.data$/);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('bounds how long a PostgreSQL session may hold locks: statement and idle-in-transaction timeouts, early keepalives', () => {
    expect(loadConfig({}).deadlines).toMatchObject({
      databaseStatementMs: 10_000,
      databaseIdleInTransactionMs: 10_000,
      databaseKeepAliveIdleMs: 10_000,
    });
    const config = loadConfig({ DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: '0', DATABASE_KEEPALIVE_IDLE_MS: '30000' });
    expect(config.deadlines).toMatchObject({ databaseIdleInTransactionMs: null, databaseKeepAliveIdleMs: 30_000 });
    expect(() => loadConfig({ DATABASE_KEEPALIVE_IDLE_MS: '10' })).toThrow('DATABASE_KEEPALIVE_IDLE_MS');
  });

  it('derives links from PORT and PUBLIC_BASE_URL', () => {
    expect(loadConfig({ PORT: '8080' }).publicBaseUrl).toBe('http://localhost:8080');
    const config = loadConfig({ PUBLIC_BASE_URL: 'https://launch.example.com/', CDN_URL: 'https://cdn.example.com' });
    expect(config).toMatchObject({ publicBaseUrl: 'https://launch.example.com', cdnUrl: 'https://cdn.example.com' });
  });

  it('refuses at start a URL that isURL accepts but the URL parser cannot read (else every request that reads it fails)', () => {
    for (const url of ['https://xn--a.example.com', 'https://[fe80::1%25eth0]', 'https://\u2488.example.com']) {
      expect(() => loadConfig({ PUBLIC_BASE_URL: url })).toThrow('PUBLIC_BASE_URL must be an absolute http(s) URL');
      expect(() => loadConfig({ STRIPE_API_URL: url })).toThrow('STRIPE_API_URL must be an absolute http(s) URL');
    }
    expect(loadConfig({ PUBLIC_BASE_URL: 'http://launch:3000' }).publicBaseUrl).toBe('http://launch:3000');
  });

  it('reads every variable of the contract', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://u:p@db:5432/launch',
      REDIS_URL: 'redis://cache:6379',
      JWT_JWKS_URL: 'https://id.example.com/.well-known/jwks.json',
      JWT_ISSUER: 'https://id.example.com/',
      ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
      SMTP_URL: 'smtp://user:pass@mail:587',
      TURNSTILE_SECRET: 'secret',
      TURNSTILE_SITE_KEY: '0x4AAAAA',
      MAIL_FROM: 'Acme <launch@acme.com>',
      WEBHOOK_RETRY_DELAYS: '1s,1s,1s,1s,1s',
      WEBHOOK_TIMEOUT_MS: '2500',
      WEBHOOK_ALLOW_INSECURE_URLS: 'true',
      LOG_LEVEL: 'debug',
      WORKERS: 'off',
      BROWSER_RATE_LIMIT: '5000',
      TRUST_PROXY: '2',
    });
    expect(config).toMatchObject({
      databaseUrl: 'postgres://u:p@db:5432/launch',
      embeddedDatabase: false,
      redisUrl: 'redis://cache:6379',
      jwt: { jwksUrl: 'https://id.example.com/.well-known/jwks.json', issuer: 'https://id.example.com/' },
      smtpUrl: 'smtp://user:pass@mail:587',
      mailFrom: 'Acme <launch@acme.com>',
      turnstile: { secret: 'secret', siteKey: '0x4AAAAA' },
      webhooks: { retryDelaysMs: [1000, 1000, 1000, 1000, 1000], timeoutMs: 2500, allowInsecureUrls: true },
      logLevel: 'debug',
      workers: false,
      browserRateLimit: 5000,
      trustProxy: 2,
    });
    expect(config.encryptionKey?.length).toBe(32);
    expect(config.startWarnings).toEqual([expect.stringContaining('development and tests only')]);
  });

  it('names every bad variable at once, hiding secrets', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://secret@x/db',
        ENCRYPTION_KEY: 'short',
        WEBHOOK_RETRY_DELAYS: '1m,soon',
        LOG_LEVEL: 'loud',
        BROWSER_RATE_LIMIT: '0',
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems.map((problem) => problem.split(' ')[0]).sort()).toEqual([
      'BROWSER_RATE_LIMIT',
      'DATABASE_URL',
      'ENCRYPTION_KEY',
      'LOG_LEVEL',
      'PORT',
      'WEBHOOK_RETRY_DELAYS',
    ]);
    expect((error as ConfigError).message).not.toContain('secret@x');
    expect((error as ConfigError).message).toContain('(hidden)');
  });

  it('reads TRUST_PROXY as a hop count or a list of proxies; true is one hop, with a warning', () => {
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8,192.0.2.7' })).toMatchObject({
      trustProxy: ['10.0.0.0/8', '192.0.2.7'],
      trustProxyWarning: null,
    });
    expect(loadConfig({ TRUST_PROXY: 'false' })).toMatchObject({ trustProxy: false, trustProxyWarning: null });
    const one = loadConfig({ TRUST_PROXY: 'true' });
    expect(one.trustProxy).toBe(1);
    expect(one.trustProxyWarning).toMatch(/^TRUST_PROXY=true trusts exactly one proxy hop/);
  });

  it('refuses a TRUST_PROXY that is neither, naming the variable and the accepted forms', () => {
    for (const value of ['yes', '10.0.0.0/33', 'proxy.internal']) {
      let error: unknown;
      try {
        loadConfig({ TRUST_PROXY: value });
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toEqual([
        expect.stringMatching(/^TRUST_PROXY must be false, a number of proxy hops .* \(got ".+"\)$/),
      ]);
    }
  });

  it('refuses NODE_ENV=production without ENCRYPTION_KEY, except for the CLI', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    try {
      loadConfig({ NODE_ENV: 'production', ENCRYPTION_KEY: '' });
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([expect.stringMatching(/^ENCRYPTION_KEY is required with NODE_ENV=production/)]);
    }
    const key = Buffer.alloc(32, 3).toString('base64');
    expect(loadConfig({ NODE_ENV: 'production', ENCRYPTION_KEY: key }).encryptionKey).toEqual(Buffer.alloc(32, 3));
    expect(loadConfig({ NODE_ENV: 'production' }, { cli: true }).encryptionKey).toBeNull();
    expect(loadConfig({ ENCRYPTION_KEY_PREVIOUS: key }).encryptionKeyPrevious).toEqual(Buffer.alloc(32, 3));
    expect(() => loadConfig({ ENCRYPTION_KEY_PREVIOUS: 'short' })).toThrow('ENCRYPTION_KEY_PREVIOUS must be 32 bytes');
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ REDIS_URL: '', DATABASE_URL: '' })).toMatchObject({ redisUrl: null, databaseUrl: null });
  });
});

describe('DEV_MAIL', () => {
  const KEY = Buffer.alloc(32, 7).toString('base64');

  it('is on by default only under npm start (or start:dev) outside production; DEV_MAIL decides when set', () => {
    expect(loadConfig({}).devMail).toBe(false);
    expect(loadConfig({ npm_lifecycle_event: 'start' }).devMail).toBe(true);
    expect(loadConfig({ npm_lifecycle_event: 'start:dev' }).devMail).toBe(true);
    expect(loadConfig({ npm_lifecycle_event: 'start:prod' }).devMail).toBe(false);
    expect(loadConfig({ npm_lifecycle_event: 'test' }).devMail).toBe(false);
    expect(loadConfig({ npm_lifecycle_event: 'start', NODE_ENV: 'production', ENCRYPTION_KEY: KEY }).devMail).toBe(false);
    expect(loadConfig({ npm_lifecycle_event: 'start', DEV_MAIL: 'off' }).devMail).toBe(false);
    expect(loadConfig({ DEV_MAIL: 'on' }).devMail).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production', DEV_MAIL: 'off', ENCRYPTION_KEY: KEY }).devMail).toBe(false);
  });

  it('refuses anything but on and off, and refuses on with NODE_ENV=production, listed with the other problems', () => {
    expect(() => loadConfig({ DEV_MAIL: 'yes' })).toThrow(/DEV_MAIL must be one of the following values: on, off/);
    const problemsOf = (source: Record<string, string>): string[] => {
      try {
        loadConfig(source);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as ConfigError).problems;
      }
      return [];
    };
    const devMailInProduction =
      "DEV_MAIL=on shows every project's mail and is for development only; it cannot be used with NODE_ENV=production (unset it or set it to off)";
    expect(problemsOf({ DEV_MAIL: 'on', NODE_ENV: 'production', ENCRYPTION_KEY: KEY })).toEqual([devMailInProduction]);
    expect(problemsOf({ DEV_MAIL: 'on', NODE_ENV: 'production' })).toEqual([
      expect.stringMatching(/^ENCRYPTION_KEY is required with NODE_ENV=production/),
      devMailInProduction,
    ]);
  });
});

describe('MAIL_FROM and the bot check', () => {
  it('takes one sender, bare or with a display name, and refuses at start what an SMTP server would refuse', () => {
    for (const sender of ['no-reply@acme.com', 'Acme Launch <no-reply@acme.com>', '"Acme, Inc." <news@mail.acme.io>', 'dev@localhost']) {
      expect(loadConfig({ MAIL_FROM: sender }).mailFrom).toBe(sender);
    }
    const refusals = [
      'Acme Launch no-reply@acme.com',
      'Acme <no-reply@acme.com',
      'no-reply@',
      '@acme.com',
      'a@b@acme.com',
      'a@acme.com, b@acme.com',
      'Team: a@acme.com;',
      'Acme <"quoted"@acme.com>',
      'no reply@acme.com',
      'no-reply@acme..com',
    ];
    for (const sender of refusals) {
      expect(() => loadConfig({ MAIL_FROM: sender })).toThrow(
        `MAIL_FROM must be one sender address, as "no-reply@example.com" or "Acme Launch <no-reply@example.com>" (got ${JSON.stringify(sender)})`,
      );
    }
  });

  it('warns at start when TURNSTILE_SECRET comes without TURNSTILE_SITE_KEY (the hosted signup page could never pass the check)', () => {
    expect(loadConfig({ TURNSTILE_SECRET: 's3cret' }).startWarnings).toEqual([
      expect.stringMatching(
        /^TURNSTILE_SECRET is set without TURNSTILE_SITE_KEY: the hosted signup pages \(\/w\/\{slug\}\) cannot show the bot check/,
      ),
    ]);
    expect(loadConfig({ TURNSTILE_SECRET: 's3cret', TURNSTILE_SITE_KEY: '0x4AAA' }).startWarnings).toEqual([]);
    expect(loadConfig({ TURNSTILE_SITE_KEY: '0x4AAA' }).startWarnings).toEqual([]);
  });
});

describe('parseDurationList', () => {
  it('reads ms, s, m, h and d', () => {
    expect(parseDurationList('500ms, 2s,1m,1h,1d')).toEqual([500, 2000, 60_000, 3_600_000, 86_400_000]);
    expect(parseDurationList('5')).toBeNull();
    expect(parseDurationList('')).toBeNull();
  });
});

describe('logFormatOf', () => {
  it('is JSON unless a person reads it: npm start or the CLI in a terminal; LOG_FORMAT decides when set', () => {
    expect(logFormatOf({})).toBe('json');
    expect(logFormatOf({}, { terminal: true })).toBe('json');
    expect(logFormatOf({ npm_lifecycle_event: 'start' }, { terminal: true })).toBe('pretty');
    expect(logFormatOf({ npm_lifecycle_event: 'start' }, { terminal: false })).toBe('json');
    expect(logFormatOf({}, { terminal: true, cli: true })).toBe('pretty');
    expect(logFormatOf({ LOG_FORMAT: 'json', npm_lifecycle_event: 'start' }, { terminal: true })).toBe('json');
    expect(logFormatOf({ LOG_FORMAT: 'pretty' })).toBe('pretty');
    expect(() => loadConfig({ LOG_FORMAT: 'yaml' })).toThrow(ConfigError);
  });
});
