import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { ScheduleModule } from '@nestjs/schedule';
import { JobRegistry } from './job-registry';
import { QueueService } from './queue.service';
import { Sweeper } from './sweeper';

@Global()
@Module({
  imports: [DiscoveryModule, ScheduleModule.forRoot()],
  providers: [JobRegistry, QueueService, Sweeper],
  exports: [QueueService, Sweeper],
})
export class QueueModule {}
