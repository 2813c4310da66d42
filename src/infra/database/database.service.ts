import { Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { type PgQueryable, sendStatement, sendStatementsDirectly, statementNameOf } from '../../common/fast-paths/direct-statements';
import { isEmbeddedDatabaseUrl } from './embedded-postgres';

type AfterCommit = () => void | Promise<void>;

/** What SQL helpers need of a connection: `EntityManager.query`'s shape, rows back for a SELECT. */
export interface StatementRunner {
  query<T = unknown>(sql: string, parameters?: unknown[]): Promise<T>;
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
