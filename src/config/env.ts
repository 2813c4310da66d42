import { Transform } from 'class-transformer';
import {
  IsBooleanString,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  MinLength,
  Validate,
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from 'class-validator';
import { IsHttpUrl } from '../common/validation/http-url';
import { parseDurationList } from './durations';
import { TRUST_PROXY_FORMS, parseTrustProxy } from './trust-proxy';

@ValidatorConstraint({ name: 'durationList' })
class DurationListConstraint implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && parseDurationList(value) !== null;
  }
  defaultMessage(): string {
    return 'must be a comma-separated list of durations such as "1m,5m,30m,2h,6h" (units ms, s, m, h, d)';
  }
}

@ValidatorConstraint({ name: 'trustProxy' })
class TrustProxyConstraint implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && parseTrustProxy(value) !== null;
  }
  defaultMessage(): string {
    return `must be ${TRUST_PROXY_FORMS}`;
  }
}

// `address` or `Display Name <address>` (the name may be quoted); one mailbox, no group, no list.
const MAILBOX = /^(?:(?:"[^"\r\n]*"|[^<>"@,;:\r\n]+)\s*<(?<named>[^<>\s]+)>|(?<bare>[^<>\s",;]+))$/;
// A dot-atom local part (no quotes) at a host name; `localhost` and other one-label names included.
const MAIL_ADDRESS =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*$/;

/** The sender of every mail: a value the SMTP server would refuse (or rewrite) fails at start, not at the first send. */
@ValidatorConstraint({ name: 'mailbox' })
class MailboxConstraint implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    const groups = typeof value === 'string' ? MAILBOX.exec(value.trim())?.groups : undefined;
    const address = groups?.named ?? groups?.bare;
    return address !== undefined && MAIL_ADDRESS.test(address);
  }
  defaultMessage(): string {
    return 'must be one sender address, as "no-reply@example.com" or "Acme Launch <no-reply@example.com>"';
  }
}

@ValidatorConstraint({ name: 'base64Key32' })
class Base64Key32Constraint implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && Buffer.from(value, 'base64').length === 32;
  }
  defaultMessage(): string {
    return 'must be 32 bytes encoded as base64 (for example: openssl rand -base64 32)';
  }
}

@ValidatorConstraint({ name: 'originList' })
class OriginListConstraint implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && parseOriginList(value) !== null;
  }
  defaultMessage(): string {
    return 'must be a comma-separated list of origins such as "https://app.example.com,http://localhost:5173" (no "*", no paths)';
  }
}

/** `scheme://host[:port]`, lower-cased; null when any item is not such an origin (`*` included). */
export function parseOriginList(value: string): string[] | null {
  const origins: string[] = [];
  for (const item of value.split(',').map((part) => part.trim())) {
    if (item === '') continue;
    if (!/^https?:\/\/[^/?#*\s]+$/i.test(item.replace(/\/$/, ''))) return null;
    let url: URL;
    try {
      url = new URL(item);
    } catch {
      return null;
    }
    if (url.username || url.password || url.pathname !== '/' || url.search || url.hash) return null;
    origins.push(url.origin);
  }
  return origins.length > 0 ? origins : null;
}

const toInt = ({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : Number(value));

/**
 * The environment variables of CONTRACT.md, validated once at start. Unset variables keep their
 * documented defaults (applied in app-config.ts); a set but malformed one stops the process with a
 * message naming every bad variable.
 */
export class Env {
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT?: number;

  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/.+/, { message: 'must be a postgres:// or postgresql:// URL' })
  DATABASE_URL?: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  DATA_DIR?: string;

  @IsOptional()
  @Matches(/^rediss?:\/\/.+/, { message: 'must be a redis:// or rediss:// URL' })
  REDIS_URL?: string;

  @IsOptional()
  @IsHttpUrl({}, { message: 'must be an absolute http(s) URL' })
  PUBLIC_BASE_URL?: string;

  @IsOptional()
  @IsHttpUrl({}, { message: 'must be an absolute http(s) URL' })
  CDN_URL?: string;

  @IsOptional()
  @IsHttpUrl({}, { message: 'must be an absolute http(s) URL of a JSON Web Key Set' })
  JWT_JWKS_URL?: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  JWT_ISSUER?: string;

  @IsOptional()
  @Validate(Base64Key32Constraint)
  ENCRYPTION_KEY?: string;

  /** The key being replaced, read only by the CLI's encryption:reseal. */
  @IsOptional()
  @Validate(Base64Key32Constraint)
  ENCRYPTION_KEY_PREVIOUS?: string;

  @IsOptional()
  @Matches(/^smtps?:\/\/.+/, { message: 'must be an smtp:// or smtps:// URL' })
  SMTP_URL?: string;

  @IsOptional()
  @Validate(MailboxConstraint)
  MAIL_FROM?: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  TURNSTILE_SECRET?: string;

  @IsOptional()
  @IsHttpUrl({}, { message: 'must be an absolute http(s) URL' })
  TURNSTILE_VERIFY_URL?: string;

  // The public half of the bot check: the hosted signup page (/w/{slug}) shows the widget with it.
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,128}$/, { message: 'must be a Turnstile site key (letters, digits, _ and -)' })
  TURNSTILE_SITE_KEY?: string;

  @IsOptional()
  @Validate(DurationListConstraint)
  WEBHOOK_RETRY_DELAYS?: string;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(60_000)
  WEBHOOK_TIMEOUT_MS?: number;

  @IsOptional()
  @IsBooleanString({ message: 'must be true or false' })
  WEBHOOK_ALLOW_INSECURE_URLS?: string;

  @IsOptional()
  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL?: string;

  /** `json` for log shippers, `pretty` for people; unset: pretty only under `npm start` in a terminal. */
  @IsOptional()
  @IsIn(['json', 'pretty'])
  LOG_FORMAT?: string;

  @IsOptional()
  @IsIn(['on', 'off'])
  WORKERS?: string;

  /** `production` turns the development aids off (GET /dev/mail, mail links in the log). */
  @IsOptional()
  @IsString()
  NODE_ENV?: string;

  /** `on` serves the development aids (GET /dev/mail, GET /demo) to this machine; unset: on only under `npm start` outside production. */
  @IsOptional()
  @IsIn(['on', 'off'])
  DEV_MAIL?: string;

  /** Who may name the client in X-Forwarded-For: false, a hop count, or the proxies' addresses/CIDRs (trust-proxy.ts). */
  @IsOptional()
  @Validate(TrustProxyConstraint)
  TRUST_PROXY?: string;

  /** Browser calls per minute per IP; unset: the spec's 120. Benchmarks and load tests raise it. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100_000_000)
  BROWSER_RATE_LIMIT?: number;

  // --- API key lookups (keys brief) ---
  /** Failed API key lookups (unknown keys) per minute per IP before 429; unset: 30. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100_000_000)
  API_KEY_FAILURE_LIMIT?: number;
  // --- end API key lookups ---

  /** Namespace for queue and rate-limit keys in Redis, so several deployments can share one Redis. */
  @IsOptional()
  @Matches(/^[a-z0-9_-]{1,40}$/, { message: 'must be 1 to 40 lowercase letters, digits, _ or -' })
  QUEUE_PREFIX?: string;

  // Dashboard hardening: token audience and the dashboard's browser origins.
  /** When set, dashboard JWTs must carry this `aud`. */
  @IsOptional()
  @IsString()
  @MinLength(1)
  JWT_AUDIENCE?: string;

  /** Comma-separated origins of the dashboard frontend; CORS on JWT routes answers only these. */
  @IsOptional()
  @Validate(OriginListConstraint)
  DASHBOARD_ORIGINS?: string;

  /**
   * Fault tests only: holds every idempotent answer back this long after its transaction commits,
   * so a test can kill the process between COMMIT and the answer. Unset (0) in production.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(60_000)
  TEST_DELAY_AFTER_IDEMPOTENT_COMMIT_MS?: number;

  /**
   * Fault tests only: how long work held by a worker that was killed stays held before another
   * worker takes it over (the BullMQ job lock and stalled check, and every due row's lease).
   * Unset in production: each kind of due row keeps its own lease, BullMQ its 30 s lock.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1_000)
  @Max(600_000)
  TEST_JOB_LEASE_MS?: number;

  // Billing of our own plans (docs/billing.md); unset: billing routes answer BILLING_NOT_CONFIGURED.
  @IsOptional()
  @Matches(/^(sk|rk)_(live|test)_[A-Za-z0-9_]+$/, { message: 'must be a secret or restricted key (sk_live_…, sk_test_…, rk_…)' })
  STRIPE_SECRET_KEY?: string;

  @IsOptional()
  @Matches(/^whsec_[A-Za-z0-9_+/=-]+$/, { message: 'must be a webhook signing secret (whsec_…)' })
  STRIPE_WEBHOOK_SECRET?: string;

  @IsOptional()
  @Matches(/^price_[A-Za-z0-9_]+$/, { message: 'must be a price id (price_…)' })
  STRIPE_PRICE_INDIE?: string;

  @IsOptional()
  @Matches(/^price_[A-Za-z0-9_]+$/, { message: 'must be a price id (price_…)' })
  STRIPE_PRICE_BUILDER?: string;

  /** The provider's API address; tests and mock servers only (default: the provider's public API). */
  @IsOptional()
  @IsHttpUrl({}, { message: 'must be an absolute http(s) URL' })
  STRIPE_API_URL?: string;

  // Custom domains (docs/custom-domains.md); unset: domain routes answer CUSTOM_DOMAIN_NOT_CONFIGURED.
  /** The hostname owners point their CNAME at, for example `domains.launch.example`. */
  @IsOptional()
  @Matches(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$/, {
    message: 'must be a lowercase DNS hostname such as domains.launch.example',
  })
  CUSTOM_DOMAIN_CNAME_TARGET?: string;

  // Deadlines and shutdown (docs/operating.md, "Production notes").
  /** How long to wait for a PostgreSQL connection from the pool, including opening one. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(600_000)
  DATABASE_CONNECT_TIMEOUT_MS?: number;

  /** Connections each process keeps to PostgreSQL (API server and worker alike). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1_000)
  DATABASE_POOL_SIZE?: number;

  /**
   * While the first request in line for a pool connection has waited longer than this, new ones
   * are refused at once with 503 and Retry-After. 0: no line of the service's own (each request
   * waits up to DATABASE_CONNECT_TIMEOUT_MS, then 503).
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(600_000)
  DATABASE_QUEUE_WAIT_MS?: number;

  /** PostgreSQL's statement_timeout; the client gives up on a silent server a little later. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(3_600_000)
  DATABASE_STATEMENT_TIMEOUT_MS?: number;

  /**
   * PostgreSQL's idle_in_transaction_session_timeout for the service's pool (not for migrations): a
   * process that froze or vanished inside a transaction loses its session, and its locks, after
   * this long. 0: PostgreSQL's own setting.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(3_600_000)
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS?: number;

  /** Idle time before TCP keepalive probes start on a PostgreSQL connection. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1_000)
  @Max(7_200_000)
  DATABASE_KEEPALIVE_IDLE_MS?: number;

  /** ioredis commandTimeout of the rate-limit and queue-producer connections. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(50)
  @Max(600_000)
  REDIS_COMMAND_TIMEOUT_MS?: number;

  /** On SIGTERM, how long in-flight requests and jobs may take before connections are cut. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(3_600_000)
  SHUTDOWN_GRACE_MS?: number;
}
