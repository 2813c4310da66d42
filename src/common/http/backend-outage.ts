/**
 * Recognises the failures that mean "a backing service (PostgreSQL, Redis) cannot be reached or
 * did not answer in time", as opposed to a bug. They answer 503 SERVICE_UNAVAILABLE with
 * Retry-After instead of 500: the client did nothing wrong and a retry soon will likely work.
 * Matched by shape (error codes, SQLSTATE classes, the drivers' fixed messages), because the
 * kernel imports no driver.
 */

/** Seconds a client should wait before retrying during an outage. */
export const OUTAGE_RETRY_AFTER_SECONDS = 5;

/**
 * The `code` of an error that means "the backend answers but has no room for this request now"
 * (the database pool's line is full: infra/database/pool-admission.ts). Such an error carries its
 * own `retryAfterSeconds`.
 */
export const BACKEND_BUSY = 'BACKEND_BUSY';

// Socket-level failures (Node's net module, pg and ioredis pass them through).
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

// SQLSTATE: 08 connection exception, 53 insufficient resources (too many connections),
// 57014 statement timeout, 57P01-57P05 server shutting down or unreachable.
const SQLSTATE_OUTAGE = /^(08|53)|^57(014|P0[1-5])$/;

// The fixed messages of pg, pg-pool, ioredis and our own deadlines.
const OUTAGE_MESSAGES = [
  /^Connection terminated/, // pg: 'Connection terminated unexpectedly', '… due to connection timeout'
  /^timeout exceeded when trying to connect$/, // pg-pool connectionTimeoutMillis
  /^Query read timeout$/, // pg query_timeout
  /is not queryable$/, // pg: a client whose connection failed
  /^Command timed out$/, // ioredis commandTimeout
  /^Connection is closed\.?$/, // ioredis
  /^Stream isn't writeable/, // ioredis without an offline queue
  /^Reached the max retries per request limit/, // ioredis MaxRetriesPerRequestError
  /^Driver not Connected$/, // TypeORM after the pool was closed
];

const MAX_DEPTH = 5;

type ErrorFields = {
  code?: unknown;
  message?: unknown;
  cause?: unknown;
  driverError?: unknown;
  errors?: unknown;
  name?: unknown;
  retryAfterSeconds?: unknown;
};

/** The errors wrapped in `error`: TypeORM wraps the driver's error; Node wraps one failure per address in an AggregateError. */
function nestedErrors(fields: ErrorFields): unknown[] {
  return [fields.driverError, fields.cause, ...(Array.isArray(fields.errors) ? fields.errors : [])];
}

/** The Retry-After seconds of a BACKEND_BUSY error in `error` or what it wraps; null when there is none. */
export function busyRetryAfter(error: unknown, depth = 0): number | null {
  if (!error || typeof error !== 'object' || depth > MAX_DEPTH) return null;
  const fields = error as ErrorFields;
  if (fields.code === BACKEND_BUSY && typeof fields.retryAfterSeconds === 'number') return fields.retryAfterSeconds;
  for (const inner of nestedErrors(fields)) {
    const found = inner === error ? null : busyRetryAfter(inner, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

export function isBackendOutage(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > MAX_DEPTH) return false;
  const fields = error as ErrorFields;
  if (typeof fields.code === 'string' && (NETWORK_CODES.has(fields.code) || SQLSTATE_OUTAGE.test(fields.code))) return true;
  if (fields.name === 'MaxRetriesPerRequestError') return true;
  if (typeof fields.message === 'string' && OUTAGE_MESSAGES.some((pattern) => pattern.test(fields.message as string))) return true;
  return nestedErrors(fields).some((inner) => inner !== error && isBackendOutage(inner, depth + 1));
}
