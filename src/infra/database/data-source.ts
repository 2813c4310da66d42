import * as pg from 'pg';
import { DataSource, EntitySchema } from 'typeorm';
import { MIGRATIONS } from './migrations';
import { AdmissionPool } from './pool-admission';
import { PostgresDeadlines, deadlineOptions } from './postgres-deadlines';
import { RedactingQueryLogger } from './redacting-query-logger';
import { SnakeNamingStrategy } from './snake-naming-strategy';

// Any fixed number: the advisory lock that lets one process at a time run migrations.
const MIGRATION_LOCK_ID = 7_311_402;

// Entity classes, as TypeORM's DataSourceOptions take them.
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export type EntityList = readonly (Function | EntitySchema)[];

// For migrations and test setup: a connect deadline, but statements (an index build, a wait for
// another process's migration lock) and the pauses of a migration's transaction may take as long as
// they need.
const MIGRATION_DEADLINES: PostgresDeadlines = { connectMs: 10_000, statementMs: null, idleInTransactionMs: null, keepAliveIdleMs: 10_000 };

/** The pool of a data source: its size, the deadlines of its calls, and its admission control. */
export interface PoolSettings {
  readonly size: number;
  readonly deadlines: PostgresDeadlines;
  /** Newcomers are refused while the first in line has waited longer (pool-admission.ts); null: pg-pool's line. */
  readonly queueWaitMs: number | null;
}

// For migrations and test setup: a small pool whose callers all wait their turn.
const MIGRATION_POOL: PoolSettings = { size: 2, deadlines: MIGRATION_DEADLINES, queueWaitMs: null };

// pg, with the pool that lines callers up fairly and refuses newcomers while the line stands still.
const PG_WITH_ADMISSION = { ...pg, Pool: AdmissionPool };

export function createDataSource(url: string, entities: EntityList, pool: PoolSettings = MIGRATION_POOL): DataSource {
  return new DataSource({
    type: 'postgres',
    url,
    entities: [...entities],
    migrations: MIGRATIONS,
    namingStrategy: new SnakeNamingStrategy(),
    synchronize: false,
    migrationsRun: false,
    installExtensions: false,
    // Query failures are logged at debug, with the SQL text but never its parameters (emails, tokens).
    logging: ['error'],
    logger: new RedactingQueryLogger(),
    driver: PG_WITH_ADMISSION,
    extra: { max: pool.size, queueWaitMs: pool.queueWaitMs, ...deadlineOptions(pool.deadlines) },
  });
}

/**
 * Applies pending migrations. Several API processes may start at once against one PostgreSQL;
 * the advisory lock makes the others wait and then find nothing left to do.
 */
export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((migration) => migration.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
    await runner.release();
  }
}
