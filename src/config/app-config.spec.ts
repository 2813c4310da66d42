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
      insecureWebhookWarning: null,
    });
    expect(config.dataDir).toMatch(/\.data$/);
    expect(Object.isFrozen(config)).toBe(true);
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
      webhooks: { retryDelaysMs: [1000, 1000, 1000, 1000, 1000], timeoutMs: 2500, allowInsecureUrls: true },
      logLevel: 'debug',
      workers: false,
      browserRateLimit: 5000,
      trustProxy: 2,
    });
    expect(config.encryptionKey?.length).toBe(32);
    expect(config.insecureWebhookWarning).toContain('development and tests only');
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

  it('treats empty variables as unset', () => {
    expect(loadConfig({ REDIS_URL: '', DATABASE_URL: '' })).toMatchObject({ redisUrl: null, databaseUrl: null });
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
