/**
 * What may be logged of an error that may come from the database. A TypeORM QueryFailedError
 * carries the statement's parameters (emails, tokens, hashes) and pg's `detail` repeats the
 * offending values ("Key (email)=(ada@example.com) already exists"); data-exception messages
 * quote the value too ('invalid input syntax for type uuid: "…"'). Logs keep the SQL text, the
 * SQLSTATE code and the constraint, which is what an operator needs, and never the values.
 */
interface RedactedError {
  type: string;
  message: string;
  stack?: string;
  code?: string;
  constraint?: string;
  table?: string;
  column?: string;
  query?: string;
  parameter_count?: number;
  cause?: RedactedError;
}

type ErrorLike = Error & {
  code?: unknown;
  constraint?: unknown;
  table?: unknown;
  column?: unknown;
  query?: unknown;
  parameters?: unknown;
  driverError?: unknown;
};

// 'invalid input syntax for type integer: "abc"', 'invalid input value for enum plan: "x"'.
const QUOTED_VALUE_AT_END = /: ".*"$/s;
const MAX_DEPTH = 3;

export function redactMessage(message: string): string {
  return message.replace(QUOTED_VALUE_AT_END, ': "[redacted]"');
}

function stackOf(error: Error, message: string): string | undefined {
  if (!error.stack) return undefined;
  // The stack's first line repeats the unredacted message.
  const [, ...frames] = error.stack.split('\n');
  return [`${error.name}: ${message}`, ...frames.filter((line) => /^\s+at /.test(line))].join('\n');
}

export function redactError(error: unknown, depth = 0): RedactedError {
  if (!(error instanceof Error)) return { type: typeof error, message: redactMessage(String(error)) };
  const source = error as ErrorLike;
  const driver = (source.driverError && typeof source.driverError === 'object' ? source.driverError : source) as ErrorLike;
  const message = redactMessage(error.message);
  const redacted: RedactedError = { type: error.name, message, stack: stackOf(error, message) };
  if (typeof driver.code === 'string') redacted.code = driver.code;
  if (typeof driver.constraint === 'string') redacted.constraint = driver.constraint;
  if (typeof driver.table === 'string') redacted.table = driver.table;
  if (typeof driver.column === 'string') redacted.column = driver.column;
  if (typeof source.query === 'string') redacted.query = source.query;
  if (Array.isArray(source.parameters)) redacted.parameter_count = source.parameters.length;
  if (error.cause !== undefined && depth < MAX_DEPTH) redacted.cause = redactError(error.cause, depth + 1);
  return redacted;
}
