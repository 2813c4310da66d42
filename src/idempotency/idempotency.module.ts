import { Global, Module } from '@nestjs/common';
import { IdempotencyGuard } from './idempotency.guard';
import { IdempotencyStore } from './idempotency.store';

@Global()
@Module({
  providers: [IdempotencyStore, IdempotencyGuard],
  exports: [IdempotencyStore, IdempotencyGuard],
})
export class IdempotencyModule {}
