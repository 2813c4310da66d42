import { plainToInstance } from 'class-transformer';
import { ValidationError, validateSync } from 'class-validator';
import { resolve } from 'node:path';
import type { LogFormat, LogLevel } from '../common/logging/logger';
import { parseDurationList } from './durations';
import { Env, parseOriginList } from './env';
import { TRUST_PROXY_TRUE_WARNING, TrustProxy, parseTrustProxy } from './trust-proxy';

export type { LogFormat, LogLevel };

/** The npm scripts a person runs in a terminal: the development launchers. */
const INTERACTIVE_SCRIPTS = new Set(['start', 'start:dev']);

interface ProcessKind {
  /** The operator CLI: logs on stderr (its stdout is the command's output), readable in a terminal. */
  readonly cli?: boolean;
  /** True when this process's log (stdout; stderr for the CLI) is a terminal. */
  readonly terminal?: boolean;
}

/**
 * LOG_FORMAT when set; otherwise pretty only for a person at a terminal (CONTRACT.md): `npm start`
 * or the CLI. `node dist/main.js`, containers and piped output keep JSON for log shippers.
 */
export function logFormatOf(source: Record<string, string | undefined>, kind: ProcessKind = {}): LogFormat {
  if (source.LOG_FORMAT === 'json' || source.LOG_FORMAT === 'pretty') return source.LOG_FORMAT;
  if (!kind.terminal) return 'json';
  return kind.cli || INTERACTIVE_SCRIPTS.has(source.npm_lifecycle_event ?? '') ? 'pretty' : 'json';
}

/** The typed, frozen configuration every module reads. Built once from the environment. */
export interface AppConfig {
  readonly port: number;
  /** Null means the embedded database; main.ts starts it and fills `databaseUrl` before boot. */
  readonly databaseUrl: string | null;
  readonly embeddedDatabase: boolean;
  readonly dataDir: string;
  readonly redisUrl: string | null;
  readonly publicBaseUrl: string;
  readonly cdnUrl: string;
  readonly jwt: { readonly jwksUrl: string; readonly issuer: string | null; readonly audience: string | null } | null;
  /** ENCRYPTION_KEY; when unset, bootstrap.ts fills in the key generated into DATA_DIR (encryption-key.ts; never in production). */
  readonly encryptionKey: Buffer | null;
  /** ENCRYPTION_KEY_PREVIOUS: the key `encryption:reseal` re-seals stored secrets from. */
  readonly encryptionKeyPrevious: Buffer | null;
  readonly smtpUrl: string | null;
  readonly mailFrom: string;
  readonly turnstile: { readonly secret: string | null; readonly verifyUrl: string; readonly siteKey: string | null };
  readonly webhooks: { readonly retryDelaysMs: readonly number[]; readonly timeoutMs: number; readonly allowInsecureUrls: boolean };
  readonly logLevel: LogLevel;
  readonly logFormat: LogFormat;
  /** The operator CLI logs to stderr so its stdout stays one JSON object. */
  readonly logToStderr: boolean;
  readonly workers: boolean;
  /** NODE_ENV=production: no development aids (GET /dev/mail, recipients and links of mail in the log). */
  readonly production: boolean;
  /** DEV_MAIL: the development aids GET /dev/mail and GET /demo exist (for this machine only); never with NODE_ENV=production. */
  readonly devMail: boolean;
  /** Express's `trust proxy`: who may name the client in X-Forwarded-For (TRUST_PROXY). */
  readonly trustProxy: TrustProxy;
  /** Set when TRUST_PROXY is `true`: logged as a warning when the HTTP server starts. */
  readonly trustProxyWarning: string | null;
  /** Per-IP browser calls per minute; null: the spec's number (PLATFORM_LIMITS). */
  readonly browserRateLimit: number | null;
  /** Failed API key lookups per minute per IP (API_KEY_FAILURE_LIMIT); null: PLATFORM_LIMITS. */
  readonly apiKeyFailureLimit: number | null;
  readonly queuePrefix: string;
  /** Settings that work but are probably not what the operator meant: each logged as a warning at start. */
  readonly startWarnings: readonly string[];
  /** DASHBOARD_ORIGINS: the origins allowed to call JWT routes from a browser; empty: none. */
  readonly dashboardOrigins: readonly string[];
  /** Billing of our own plans; null until STRIPE_SECRET_KEY and both price ids are set. */
  readonly billing: BillingConfig | null;
  /** STRIPE_API_URL for projects' read-only payment-processor connections; null: the provider's public API. */
  readonly processorApiUrl: string | null;
  /** Custom domains; null until CUSTOM_DOMAIN_CNAME_TARGET is set. */
  readonly customDomains: { readonly cnameTarget: string } | null;
  /** Fault tests only (TEST_DELAY_AFTER_IDEMPOTENT_COMMIT_MS); 0 or absent in production. */
  readonly testDelayAfterIdempotentCommitMs?: number;
  /** Fault tests only (TEST_JOB_LEASE_MS): the job lock and due-row lease of every worker; null: their own. */
  readonly testJobLeaseMs?: number | null;
  /** The PostgreSQL pool of each process and its admission control (docs/operating.md, "Production notes"). */
  readonly databasePool: {
    readonly size: number;
    /**
     * DATABASE_QUEUE_WAIT_MS: while the first in line for a connection has waited longer, newcomers
     * are refused with 503. Null (0): pg-pool's own line, each caller waits up to databaseConnectMs.
     */
    readonly queueWaitMs: number | null;
  };
  /** Deadlines of every backend call and the shutdown grace period (docs/operating.md, "Production notes"). */
  readonly deadlines: {
    readonly databaseConnectMs: number;
    readonly databaseStatementMs: number;
    /** Null (0): PostgreSQL's own setting. */
    readonly databaseIdleInTransactionMs: number | null;
    readonly databaseKeepAliveIdleMs: number;
    readonly redisCommandMs: number;
    readonly shutdownGraceMs: number;
  };
}

export interface BillingConfig {
  readonly secretKey: string;
  /** Null: the webhook route answers BILLING_NOT_CONFIGURED (checkout still works). */
  readonly webhookSecret: string | null;
  readonly prices: { readonly indie: string; readonly builder: string };
  /** STRIPE_API_URL; null: the provider's public API. */
  readonly apiUrl: string | null;
}

function billingConfig(env: Env): BillingConfig | null {
  if (!env.STRIPE_SECRET_KEY || !env.STRIPE_PRICE_INDIE || !env.STRIPE_PRICE_BUILDER) return null;
  return {
    secretKey: env.STRIPE_SECRET_KEY,
    webhookSecret: env.STRIPE_WEBHOOK_SECRET ?? null,
    prices: { indie: env.STRIPE_PRICE_INDIE, builder: env.STRIPE_PRICE_BUILDER },
    apiUrl: env.STRIPE_API_URL ?? null,
  };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const SECRET_VARIABLES = new Set([
  'DATABASE_URL',
  'REDIS_URL',
  'ENCRYPTION_KEY',
  'ENCRYPTION_KEY_PREVIOUS',
  'SMTP_URL',
  'TURNSTILE_SECRET',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
]);

function describeProblems(errors: ValidationError[], raw: Record<string, string | undefined>): string[] {
  return errors.map((error) => {
    const shown = SECRET_VARIABLES.has(error.property) ? '(hidden)' : JSON.stringify(raw[error.property]);
    const reasons = Object.values(error.constraints ?? {}).map((reason) => reason.replace(`${error.property} `, ''));
    return `${error.property} ${reasons.join('; ')} (got ${shown})`;
  });
}

/**
 * DEV_MAIL when set; otherwise on only when a person starts the server with `npm start` (or
 * `npm run start:dev`) outside production. `npm run start:prod`, `node dist/main.js` and the
 * Docker image leave it off. On with NODE_ENV=production is refused (productionProblems). The one
 * switch also serves GET /demo (src/dev/), a page that needs the same guard rails and nothing more.
 */
function devMailOf(env: Env, raw: Record<string, string | undefined>): boolean {
  if (env.DEV_MAIL !== undefined) return env.DEV_MAIL === 'on';
  return env.NODE_ENV !== 'production' && INTERACTIVE_SCRIPTS.has(raw.npm_lifecycle_event ?? '');
}

/**
 * What NODE_ENV=production refuses, listed with the other bad variables:
 * - no ENCRYPTION_KEY for the API server or the worker: a key generated into a container's
 *   DATA_DIR dies with the container, and every secret sealed under it with it (the CLI may run
 *   without one; its commands that open sealed values refuse at start);
 * - DEV_MAIL=on: the page shows every project's confirmation links, which no production server
 *   should hand out.
 */
function productionProblems(env: Env, kind: ProcessKind): string[] {
  if (env.NODE_ENV !== 'production') return [];
  const problems: string[] = [];
  if (!env.ENCRYPTION_KEY && !kind.cli) {
    problems.push(
      'ENCRYPTION_KEY is required with NODE_ENV=production: set it to the key the stored secrets were sealed with, or for a new installation to 32 random bytes in base64 (openssl rand -base64 32)',
    );
  }
  if (env.DEV_MAIL === 'on') {
    problems.push(
      "DEV_MAIL=on shows every project's mail and is for development only; it cannot be used with NODE_ENV=production (unset it or set it to off)",
    );
  }
  return problems;
}

/**
 * Combinations that start but do something the operator probably did not intend:
 * - WEBHOOK_ALLOW_INSECURE_URLS: webhooks may reach this machine's network;
 * - TURNSTILE_SECRET without TURNSTILE_SITE_KEY: every widget signup needs a bot-check token, and
 *   the hosted signup page (/w/{slug}), which can only show the check with the site key, cannot
 *   get one: all of its signups are refused with TURNSTILE_FAILED.
 */
function startWarningsOf(env: Env): string[] {
  const warnings: string[] = [];
  if (env.WEBHOOK_ALLOW_INSECURE_URLS === 'true') {
    warnings.push(
      'WEBHOOK_ALLOW_INSECURE_URLS is on: webhook URLs may be http://, loopback or private addresses. For development and tests only.',
    );
  }
  if (env.TURNSTILE_SECRET && !env.TURNSTILE_SITE_KEY) {
    warnings.push(
      'TURNSTILE_SECRET is set without TURNSTILE_SITE_KEY: the hosted signup pages (/w/{slug}) cannot show the bot check, so every signup sent from them is refused with TURNSTILE_FAILED. Set TURNSTILE_SITE_KEY to the site key of the same Turnstile widget.',
    );
  }
  return warnings;
}

/** Reads only the variables of CONTRACT.md (plus WORKERS and QUEUE_PREFIX); empty strings count as unset. */
export function loadConfig(source: Record<string, string | undefined> = process.env, kind: ProcessKind = {}): AppConfig {
  const raw: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(source)) if (value !== undefined && value !== '') raw[key] = value;
  const env = plainToInstance(Env, raw, { excludeExtraneousValues: false });
  const errors = validateSync(env, { whitelist: false, forbidUnknownValues: false });
  const problems = [...describeProblems(errors, raw), ...productionProblems(env, kind)];
  if (problems.length > 0) throw new ConfigError(problems);

  const port = env.PORT ?? 3000;
  const publicBaseUrl = (env.PUBLIC_BASE_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
  const config: AppConfig = {
    port,
    databaseUrl: env.DATABASE_URL ?? null,
    embeddedDatabase: env.DATABASE_URL === undefined,
    dataDir: resolve(env.DATA_DIR ?? './.data'),
    redisUrl: env.REDIS_URL ?? null,
    publicBaseUrl,
    cdnUrl: (env.CDN_URL ?? publicBaseUrl).replace(/\/+$/, ''),
    jwt: env.JWT_JWKS_URL ? { jwksUrl: env.JWT_JWKS_URL, issuer: env.JWT_ISSUER ?? null, audience: env.JWT_AUDIENCE ?? null } : null,
    encryptionKey: env.ENCRYPTION_KEY ? Buffer.from(env.ENCRYPTION_KEY, 'base64') : null,
    encryptionKeyPrevious: env.ENCRYPTION_KEY_PREVIOUS ? Buffer.from(env.ENCRYPTION_KEY_PREVIOUS, 'base64') : null,
    smtpUrl: env.SMTP_URL ?? null,
    mailFrom: env.MAIL_FROM ?? 'Launch Service <no-reply@localhost>',
    turnstile: {
      secret: env.TURNSTILE_SECRET ?? null,
      verifyUrl: env.TURNSTILE_VERIFY_URL ?? 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
      siteKey: env.TURNSTILE_SITE_KEY ?? null,
    },
    webhooks: {
      retryDelaysMs: parseDurationList(env.WEBHOOK_RETRY_DELAYS ?? '1m,5m,30m,2h,6h') ?? [],
      timeoutMs: env.WEBHOOK_TIMEOUT_MS ?? 10_000,
      allowInsecureUrls: env.WEBHOOK_ALLOW_INSECURE_URLS === 'true',
    },
    logLevel: (env.LOG_LEVEL ?? 'info') as LogLevel,
    logFormat: logFormatOf(raw, kind),
    logToStderr: kind.cli === true,
    workers: env.WORKERS !== 'off',
    production: env.NODE_ENV === 'production',
    devMail: devMailOf(env, raw),
    trustProxy: env.TRUST_PROXY ? (parseTrustProxy(env.TRUST_PROXY) ?? false) : false,
    trustProxyWarning: env.TRUST_PROXY?.trim() === 'true' ? TRUST_PROXY_TRUE_WARNING : null,
    browserRateLimit: env.BROWSER_RATE_LIMIT ?? null,
    apiKeyFailureLimit: env.API_KEY_FAILURE_LIMIT ?? null,
    queuePrefix: env.QUEUE_PREFIX ?? 'launch',
    startWarnings: Object.freeze(startWarningsOf(env)),
    dashboardOrigins: Object.freeze(env.DASHBOARD_ORIGINS ? (parseOriginList(env.DASHBOARD_ORIGINS) ?? []) : []),
    billing: billingConfig(env),
    processorApiUrl: env.STRIPE_API_URL ?? null,
    customDomains: env.CUSTOM_DOMAIN_CNAME_TARGET ? { cnameTarget: env.CUSTOM_DOMAIN_CNAME_TARGET } : null,
    testDelayAfterIdempotentCommitMs: env.TEST_DELAY_AFTER_IDEMPOTENT_COMMIT_MS ?? 0,
    testJobLeaseMs: env.TEST_JOB_LEASE_MS ?? null,
    databasePool: {
      size: env.DATABASE_POOL_SIZE ?? 10,
      queueWaitMs: env.DATABASE_QUEUE_WAIT_MS === 0 ? null : (env.DATABASE_QUEUE_WAIT_MS ?? 5_000),
    },
    deadlines: {
      databaseConnectMs: env.DATABASE_CONNECT_TIMEOUT_MS ?? 5_000,
      databaseStatementMs: env.DATABASE_STATEMENT_TIMEOUT_MS ?? 10_000,
      databaseIdleInTransactionMs:
        env.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS === 0 ? null : (env.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS ?? 10_000),
      databaseKeepAliveIdleMs: env.DATABASE_KEEPALIVE_IDLE_MS ?? 10_000,
      redisCommandMs: env.REDIS_COMMAND_TIMEOUT_MS ?? 2_000,
      shutdownGraceMs: env.SHUTDOWN_GRACE_MS ?? 10_000,
    },
  };
  return Object.freeze(config);
}

/** The embedded database is started before the app; this records its address in the config. */
export function withDatabaseUrl(config: AppConfig, databaseUrl: string): AppConfig {
  return Object.freeze({ ...config, databaseUrl });
}

export const APP_CONFIG = Symbol('APP_CONFIG');
