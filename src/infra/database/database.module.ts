import { DynamicModule, Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { EntityList, createDataSource, runMigrations } from './data-source';
import { Database, recordAppliedMigrations } from './database';

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
            const dataSource = createDataSource(config.databaseUrl, entities);
            await dataSource.initialize();
            recordAppliedMigrations(dataSource, await runMigrations(dataSource));
            return dataSource;
          },
        },
        Database,
      ],
      exports: [DataSource, Database],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}
