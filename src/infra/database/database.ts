import { Injectable, Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import {
  DataSource,
  EntityManager,
  QueryFailedError,
  QueryRunnerProviderAlreadyReleasedError,
  type Logger as TypeOrmLogger,
} from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import type { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
import { isEmbeddedDatabaseUrl } from './embedded-postgres';

type AfterCommit = () => void | Promise<void>;

/** What SQL helpers need of a connection: `EntityManager.query`'s shape, rows back for a SELECT. */
export interface StatementRunner {
  query<T = unknown>(sql: string, parameters?: unknown[]): Promise<T>;
}

interface PgResult {
  command: string;
  rows: unknown[];
  rowCount: number | null;
}

/** A named statement as pg takes it: parsed and planned once per connection, then only bound and run. */
interface PgNamedStatement {
  name: string;
  text: string;
  values?: unknown[];
}

interface PgQueryable {
  query(sql: string | PgNamedStatement, parameters?: unknown[]): Promise<PgResult>;
}

/** Per statement text, its name: a hash, so two texts never share one (pg refuses that on a connection). */
const statementNames = new Map<string, string>();

function statementNameOf(sql: string): string {
  let name = statementNames.get(sql);
  if (name === undefined) {
    name = `s_${createHash('sha1').update(sql).digest('hex').slice(0, 24)}`;
    statementNames.set(sql, name);
  }
  return name;
}

const afterCommitHooks = new WeakMap<EntityManager, AfterCommit[]>();
const migrationsAppliedAtStart = new WeakMap<DataSource, string[]>();

export function recordAppliedMigrations(dataSource: DataSource, names: string[]): void {
  migrationsAppliedAtStart.set(dataSource, names);
}

/**
 * Registers work that must only happen once the transaction of `em` has committed, such as waking a
 * queue worker for an outbox row. Outside a transaction started by `Database.transaction` the
 * callback runs at once.
 */
export function afterCommit(em: EntityManager, callback: AfterCommit): void {
  const hooks = afterCommitHooks.get(em);
  if (hooks) hooks.push(callback);
  else
    void Promise.resolve()
      .then(callback)
      .catch((error) => new Logger('Database').warn(`after-commit hook failed: ${error}`));
}

/**
 * The one way services open transactions. One use case, one transaction: helpers receive the
 * `EntityManager` and never open their own. Hooks registered with `afterCommit` run after COMMIT
 * and never after a rollback.
 */
@Injectable()
export class Database {
  private readonly logger = new Logger(Database.name);

  constructor(readonly dataSource: DataSource) {}

  /** The migrations this process applied when it started. */
  get appliedMigrations(): string[] {
    return migrationsAppliedAtStart.get(this.dataSource) ?? [];
  }

  get manager(): EntityManager {
    return this.dataSource.manager;
  }

  /**
   * One statement outside any transaction (a read, or a write that stands alone, such as a rate-limit
   * counter's upsert), sent straight through the pool TypeORM holds
   * (same connections, same deadlines). `manager.query` wraps each statement in a query runner of
   * its own (object, broadcaster events, bookkeeping on acquire and release): on the hottest reads
   * that cost as much as the round trip. Answers and failures as `sendStatement` gives them.
   */
  readonly reads: StatementRunner = {
    query: <T>(sql: string, parameters?: unknown[]): Promise<T> =>
      sendStatement<T>((this.dataSource.driver as PostgresDriver).master as PgQueryable, sql, parameters, this.dataSource.logger),
  };

  /**
   * `reads` as named statements: each pooled connection parses a statement once, and after five
   * runs PostgreSQL may keep a generic plan for it, so a hot read with a big plan (the widget's
   * list: about 1.5 ms of planning) stops being planned on every request. For statements whose text
   * is fixed: every distinct text is a statement kept on every connection for its life.
   */
  readonly preparedReads: StatementRunner = {
    query: <T>(sql: string, parameters?: unknown[]): Promise<T> =>
      sendStatement<T>(
        (this.dataSource.driver as PostgresDriver).master as PgQueryable,
        this.embedded ? sql : { name: statementNameOf(sql), text: sql, values: parameters },
        parameters,
        this.dataSource.logger,
      ),
  };

  /**
   * The embedded database serves every pooled connection from one session, where a statement one
   * connection prepared already exists for the next: there `preparedReads` sends plain statements.
   */
  private get embedded(): boolean {
    const url = (this.dataSource.options as { url?: string }).url;
    return url !== undefined && isEmbeddedDatabaseUrl(url);
  }

  async transaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    const hooks: AfterCommit[] = [];
    const result = await this.dataSource.transaction(async (em) => {
      afterCommitHooks.set(em, hooks);
      await sendStatementsDirectly(em);
      return work(em);
    });
    for (const hook of hooks) {
      try {
        await hook();
      } catch (error) {
        // The data is committed; a failed wake-up is repaired by the sweeper.
        this.logger.warn(`after-commit hook failed: ${(error as Error).message}`);
      }
    }
    return result;
  }
}

/**
 * One statement on a pg pool or client, answered as `EntityManager.query` answers it (rows;
 * `[rows, count]` for UPDATE and DELETE) and failing as it fails (logged through TypeORM's logger,
 * wrapped in `QueryFailedError` around the driver error), so the SQL helpers and the error rules
 * (postgres-errors.ts, backend-outage.ts) cannot tell which path a statement took.
 */
async function sendStatement<T>(
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
async function sendStatementsDirectly(em: EntityManager): Promise<void> {
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
