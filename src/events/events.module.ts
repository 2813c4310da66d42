import { Module } from '@nestjs/common';
import { OutboxService } from './outbox.service';
import { ErasureRegistryModule } from '../infra/erasure/erasure-registry.module';

@Module({
  imports: [ErasureRegistryModule],
  providers: [OutboxService],
  exports: [OutboxService],
})
export class EventsModule {}
