import { Global, Module } from '@nestjs/common';
import { IdempotencyClaims } from './idempotency-claims';
import { IdempotencyStore } from './idempotency.store';

@Global()
@Module({
  providers: [IdempotencyStore, IdempotencyClaims],
  exports: [IdempotencyStore, IdempotencyClaims],
})
export class IdempotencyModule {}
