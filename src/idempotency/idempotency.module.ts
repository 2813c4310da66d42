import { Module } from '@nestjs/common';
import { IdempotencyClaims } from './idempotency-claims.service';
import { IdempotencyStore } from './idempotency-store.service';
import { EncryptionModule } from '../infra/encryption/encryption.module';
import { ErasureRegistryModule } from '../infra/erasure/erasure-registry.module';

@Module({
  imports: [ErasureRegistryModule, EncryptionModule],
  providers: [IdempotencyStore, IdempotencyClaims],
  exports: [IdempotencyStore, IdempotencyClaims],
})
export class IdempotencyModule {}
