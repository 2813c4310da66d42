import { DynamicModule, Global, Inject, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { EntityList, PoolSettings, createDataSource, runMigrations } from './data-source';
import { ChangeNotifications } from './change-notifications.service';
import { Database, recordAppliedMigrations } from './database.service';
import type { PostgresDeadlines } from './postgres-deadlines';

/**
 * Migrations run on a short-lived data source of their own: they may outlast the statement
 * deadline. What ran is logged by name, so that an upgrade's log says what it changed.
 */
async function migrate(url: string, entities: EntityList): Promise<string[]> {
  const migrator = createDataSource(url, entities);
  await migrator.initialize();
  try {
    const applied = await runMigrations(migrator);
    const logger = new Logger('Database');
    if (applied.length === 0) logger.log(`schema up to date (${migrator.migrations.length} migrations)`);
    else
      logger.log({ msg: `ran ${applied.length} of ${migrator.migrations.length} migrations: ${applied.join(', ')}`, migrations: applied });
    return applied;
  } finally {
    await migrator.destroy();
  }
}

/**
 * The embedded database runs in this process and serves one statement at a time for every
 * connection: it cannot go silent the way a server across a network can, and under a burst the
 * wait for a pooled connection is long by design. There, statements get no deadline and the pool
 * no wait limit nor admission control, rather than refusing a burst with 503s.
 */
function poolOf(config: AppConfig): PoolSettings {
  const size = config.databasePool.size;
  if (config.embeddedDatabase) {
    return { size, deadlines: { connectMs: null, statementMs: null, idleInTransactionMs: null, keepAliveIdleMs: null }, queueWaitMs: null };
  }
  const deadlines: PostgresDeadlines = {
    connectMs: config.deadlines.databaseConnectMs,
    statementMs: config.deadlines.databaseStatementMs,
    idleInTransactionMs: config.deadlines.databaseIdleInTransactionMs,
    keepAliveIdleMs: config.deadlines.databaseKeepAliveIdleMs,
  };
  return { size, deadlines, queueWaitMs: config.databasePool.queueWaitMs };
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
            const dataSource = createDataSource(config.databaseUrl, entities, poolOf(config));
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
