import { DynamicModule, Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { EntityList, MIGRATION_DEADLINES, createDataSource, runMigrations } from './data-source';
import { ChangeNotifications } from './change-notifications';
import { Database, recordAppliedMigrations } from './database';
import type { PostgresDeadlines } from './postgres-deadlines';

/** Migrations run on a short-lived data source of their own: they may outlast the statement deadline. */
async function migrate(url: string, entities: EntityList): Promise<string[]> {
  const migrator = createDataSource(url, entities, 2, MIGRATION_DEADLINES);
  await migrator.initialize();
  try {
    return await runMigrations(migrator);
  } finally {
    await migrator.destroy();
  }
}

/**
 * The embedded database runs in this process and serves one statement at a time for every
 * connection: it cannot go silent the way a server across a network can, and under a burst the
 * wait for a pooled connection is long by design. There, statements get no deadline and the pool
 * no wait limit, rather than refusing a burst with 503s.
 */
function deadlinesOf(config: AppConfig): PostgresDeadlines {
  if (config.embeddedDatabase) return { connectMs: null, statementMs: null };
  return { connectMs: config.deadlines.databaseConnectMs, statementMs: config.deadlines.databaseStatementMs };
}

/** The database, migrated at start. The application passes the entity registry (src/entities.ts). */
@Global()
@Module({})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  static forRoot(entities: EntityList): DynamicModule {
    return {
      module: DatabaseModule,
      providers: [
        {
          provide: DataSource,
          inject: [APP_CONFIG],
          useFactory: async (config: AppConfig) => {
            if (!config.databaseUrl) throw new Error('No database URL: start the embedded database before the app');
            const applied = await migrate(config.databaseUrl, entities);
            const dataSource = createDataSource(config.databaseUrl, entities, 10, deadlinesOf(config));
            await dataSource.initialize();
            recordAppliedMigrations(dataSource, applied);
            return dataSource;
          },
        },
        Database,
        ChangeNotifications,
      ],
      exports: [DataSource, Database, ChangeNotifications],
    };
  }

  /** Last of all (bootstrap.ts closes it explicitly after the queues and Redis on SIGTERM). */
  async onApplicationShutdown(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}
