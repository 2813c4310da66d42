import Redis from 'ioredis';
import { Client } from 'pg';

/**
 * A backend named by a setting did not answer at start. Its message is one line an operator can act
 * on: the setting, the address (never the password) and the reason.
 */
export class StartupFailure extends Error {
  constructor(
    readonly setting: string,
    readonly target: string,
    readonly reason: string,
    hint: string,
  ) {
    super(`${setting}: cannot connect to ${target}: ${reason}. ${hint}`);
    this.name = 'StartupFailure';
  }
}

/** `host:port` of a URL, with the database and user when they are given; never the password. */
export function describeTarget(url: string, defaultPort: number): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '(an address that is not a URL)';
  }
  const host = `${parsed.hostname || 'localhost'}:${parsed.port || defaultPort}`;
  const database = parsed.pathname.replace(/^\//, '');
  const details = [
    database ? `database "${decodeURIComponent(database)}"` : '',
    parsed.username ? `user "${decodeURIComponent(parsed.username)}"` : '',
  ]
    .filter(Boolean)
    .join(', ');
  return details ? `${host} (${details})` : host;
}

// What the usual system errors mean, in words.
const SYSTEM_REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused (nothing listens on that port)',
  ENOTFOUND: 'unknown host name',
  EAI_AGAIN: 'the host name could not be resolved right now',
  ETIMEDOUT: 'no answer (timed out)',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ECONNRESET: 'the connection was reset',
};

// PostgreSQL's SQLSTATE codes an operator meets at connect time.
const POSTGRES_REASONS: Record<string, string> = {
  '28P01': 'authentication failed (wrong password)',
  '28000': 'authentication refused (no pg_hba.conf entry or role)',
  '3D000': 'the database does not exist',
  '53300': 'too many connections',
  '57P03': 'the server is starting up or shutting down',
};

/** A short reason for a connection error: its code and what the code means, never a stack. */
export function reasonOf(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message.split('\n')[0] : String(error);
  if (typeof code === 'string' && SYSTEM_REASONS[code]) return `${code}, ${SYSTEM_REASONS[code]}`;
  if (typeof code === 'string' && POSTGRES_REASONS[code]) return `${POSTGRES_REASONS[code]}: ${text}`;
  if (/^(WRONGPASS|NOAUTH)/.test(text) || /AUTH.*without any password/.test(text)) return `authentication failed: ${text}`;
  if (/timeout/i.test(text)) return `no answer (timed out): ${text}`;
  return typeof code === 'string' ? `${code}, ${text}` : text;
}

const POSTGRES_HINT = 'Start PostgreSQL or correct DATABASE_URL; leave DATABASE_URL unset to use the embedded database.';
const REDIS_HINT = 'Start Redis or correct REDIS_URL; leave REDIS_URL unset to run the queues on the database.';

/** Connects once and runs `SELECT 1`, within `timeoutMs`. */
export async function probePostgres(url: string, timeoutMs: number): Promise<void> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: timeoutMs, application_name: 'launch-startup-check' });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (error) {
    throw new StartupFailure('DATABASE_URL', `PostgreSQL at ${describeTarget(url, 5432)}`, reasonOf(error), POSTGRES_HINT);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Connects once, without ioredis's endless reconnects, and sends PING within `timeoutMs`. Later
 * connections keep reconnecting (a Redis restart must not stop the service); only the first
 * contact decides whether the settings are right.
 */
export async function probeRedis(url: string, timeoutMs: number): Promise<void> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  let lastError: unknown = null;
  redis.on('error', (error) => (lastError = error));
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    const cause = lastError && /Connection is closed|Stream isn't writeable/.test((error as Error).message) ? lastError : error;
    throw new StartupFailure('REDIS_URL', `Redis at ${describeTarget(url, 6379)}`, reasonOf(cause), REDIS_HINT);
  } finally {
    // After a refused connection the client has ended already; disconnecting again would start
    // ioredis's 2 s "stream still open" timer, which nothing clears, and hold the process open.
    if (redis.status !== 'end') redis.disconnect();
  }
}
