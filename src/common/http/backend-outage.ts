/**
 * Recognises the failures that mean "a backing service (PostgreSQL, Redis) cannot be reached or
 * did not answer in time", as opposed to a bug. They answer 503 SERVICE_UNAVAILABLE with
 * Retry-After instead of 500: the client did nothing wrong and a retry soon will likely work.
 * Matched by shape (error codes, SQLSTATE classes, the drivers' fixed messages), because the
 * kernel imports no driver.
 */

/** Seconds a client should wait before retrying during an outage. */
export const OUTAGE_RETRY_AFTER_SECONDS = 5;

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

type ErrorFields = { code?: unknown; message?: unknown; cause?: unknown; driverError?: unknown; errors?: unknown; name?: unknown };

export function isBackendOutage(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > MAX_DEPTH) return false;
  const fields = error as ErrorFields;
  if (typeof fields.code === 'string' && (NETWORK_CODES.has(fields.code) || SQLSTATE_OUTAGE.test(fields.code))) return true;
  if (fields.name === 'MaxRetriesPerRequestError') return true;
  if (typeof fields.message === 'string' && OUTAGE_MESSAGES.some((pattern) => pattern.test(fields.message as string))) return true;
  // TypeORM wraps the driver's error; Node wraps one failure per address in an AggregateError.
  const nested = [fields.driverError, fields.cause, ...(Array.isArray(fields.errors) ? fields.errors : [])];
  return nested.some((inner) => inner !== error && isBackendOutage(inner, depth + 1));
}
