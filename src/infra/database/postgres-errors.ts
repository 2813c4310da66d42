import { QueryFailedError } from 'typeorm';

interface PostgresDriverError {
  code?: string;
  constraint?: string;
}

function driverError(error: unknown): PostgresDriverError | null {
  if (error instanceof QueryFailedError) return error.driverError as PostgresDriverError;
  if (error && typeof error === 'object' && 'code' in error) return error as PostgresDriverError;
  return null;
}

/** True for a unique-index violation (23505), optionally only for the named index or constraint. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const cause = driverError(error);
  return cause?.code === '23505' && (constraint === undefined || cause.constraint === constraint);
}
