import { createHash } from 'node:crypto';
import { type EntityManager, QueryFailedError, QueryRunnerProviderAlreadyReleasedError, type Logger as TypeOrmLogger } from 'typeorm';
import type { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';

/*
 * Statements sent to a pg connection without TypeORM's per-statement machinery, answering and
 * failing exactly as TypeORM's path does. Used by Database: `reads`, `preparedReads` and `em.query`
 * inside `Database.transaction`. Measured on the 2-vCPU machine: 15-25 µs of CPU less per feedback
 * transaction of seven statements, and 20-50 µs less per `GET /v1/waitlist/stats` read. Relies on
 * TypeORM internals that test/infra/database.e2e-spec.ts pins: PostgresDriver.master is the pg pool; a transaction's PostgresQueryRunner.connect() hands
 * back the pg client it holds; `isReleased` turns true once the transaction ends; `em.query`'s
 * answer for UPDATE and DELETE is `[rows, count]`.
 */

interface PgResult {
  command: string;
  rows: unknown[];
  rowCount: number | null;
}

/** A named statement as pg takes it: parsed and planned once per connection, then only bound and run. */
export interface PgNamedStatement {
  name: string;
  text: string;
  values?: unknown[];
}

export interface PgQueryable {
  query(sql: string | PgNamedStatement, parameters?: unknown[]): Promise<PgResult>;
}

/** Per statement text, its name: a hash, so two texts never share one (pg refuses that on a connection). */
const statementNames = new Map<string, string>();

export function statementNameOf(sql: string): string {
  let name = statementNames.get(sql);
  if (name === undefined) {
    name = `s_${createHash('sha1').update(sql).digest('hex').slice(0, 24)}`;
    statementNames.set(sql, name);
  }
  return name;
}

/**
 * One statement on a pg pool or client, answered as `EntityManager.query` answers it (rows;
 * `[rows, count]` for UPDATE and DELETE) and failing as it fails (logged through TypeORM's logger,
 * wrapped in `QueryFailedError` around the driver error), so the SQL helpers and the error rules
 * (postgres-errors.ts, backend-outage.ts) cannot tell which path a statement took.
 */
export async function sendStatement<T>(
  connection: PgQueryable,
  statement: string | PgNamedStatement,
  parameters: unknown[] | undefined,
  logger: TypeOrmLogger,
): Promise<T> {
  try {
    const result = typeof statement === 'string' ? await connection.query(statement, parameters) : await connection.query(statement);
    return (result.command === 'UPDATE' || result.command === 'DELETE' ? [result.rows, result.rowCount] : result.rows) as T;
  } catch (error) {
    const sql = typeof statement === 'string' ? statement : statement.text;
    logger.logQueryError(error as Error, sql, parameters);
    throw new QueryFailedError(sql, parameters, error as Error);
  }
}

/**
 * Makes `em.query` send its statement straight to the transaction's connection (`sendStatement`).
 * TypeORM's own path (EntityManager → DataSource → query runner) awaits a connect and two event
 * broadcasts and builds a result object per statement; the busiest writes are plain SQL helpers
 * (`<aggregate>.queries.ts`) only, and on the feedback write's seven statements that was 15 to 25
 * µs of CPU per transaction, about half of what TypeORM adds over a bare pg client. The manager
 * refuses statements once its transaction has ended, as TypeORM's does. Repositories and query
 * builders keep TypeORM's path on the same connection.
 */
export async function sendStatementsDirectly(em: EntityManager): Promise<void> {
  const runner = em.queryRunner as PostgresQueryRunner | undefined;
  if (!runner) return;
  // The connection the transaction already holds (connect() only hands it back).
  const connection = (await runner.connect()) as PgQueryable;
  const logger = runner.dataSource.logger;
  const query = <T>(sql: string, parameters?: unknown[]): Promise<T> => {
    if (runner.isReleased) return Promise.reject(new QueryRunnerProviderAlreadyReleasedError());
    return sendStatement<T>(connection, sql, parameters, logger);
  };
  Object.defineProperty(em, 'query', { value: query });
}
