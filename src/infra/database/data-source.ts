import { DataSource, EntitySchema } from 'typeorm';
import { MIGRATIONS } from './migrations';
import { SnakeNamingStrategy } from './snake-naming-strategy';

// Any fixed number: the advisory lock that lets one process at a time run migrations.
const MIGRATION_LOCK_ID = 7_311_402;

// Entity classes, as TypeORM's DataSourceOptions take them.
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export type EntityList = readonly (Function | EntitySchema)[];

export function createDataSource(url: string, entities: EntityList, poolSize = 10): DataSource {
  return new DataSource({
    type: 'postgres',
    url,
    entities: [...entities],
    migrations: MIGRATIONS,
    namingStrategy: new SnakeNamingStrategy(),
    synchronize: false,
    migrationsRun: false,
    installExtensions: false,
    logging: false,
    extra: { max: poolSize },
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
