import { BullModule } from '@nestjs/bullmq';
import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { ScheduleModule } from '@nestjs/schedule';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { DueRows } from './due-rows.service';
import { QUEUE_NAMES } from './job-catalog';
import { jobProcessorProviders } from './job.processor';
import { JobRegistry } from './job-registry.service';
import { queueOptionsFor } from './queue-backend';
import { migrateQueueSchema } from './queue-schema';
import { QueueService, jobQueuesProvider } from './queue.service';
import { Sweeper } from './sweeper.service';

/**
 * Queues through @nestjs/bullmq. Registration of the workers is manual: QueueService starts them
 * only where WORKERS is on, after the job catalog check.
 */
@Global()
@Module({
  imports: [
    DiscoveryModule,
    ScheduleModule.forRoot(),
    BullModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: async (config: AppConfig) => {
        await migrateQueueSchema(config);
        return queueOptionsFor(config);
      },
      extraOptions: { manualRegistration: true },
    }),
    BullModule.registerQueue(...QUEUE_NAMES.map((name) => ({ name }))),
  ],
  providers: [JobRegistry, QueueService, Sweeper, DueRows, jobQueuesProvider, ...jobProcessorProviders()],
  exports: [QueueService, Sweeper, DueRows],
})
export class QueueModule {}
