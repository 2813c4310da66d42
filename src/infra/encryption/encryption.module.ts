import { DynamicModule, Global, Module } from '@nestjs/common';
import { ENCRYPTION_KEY_CHECK_OPTIONS, EncryptionKeyCheck, type EncryptionKeyCheckOptions } from './encryption-key-check';
import { ResealService } from './reseal.service';
import { SealedValues } from './sealed-values';

/**
 * ENCRYPTION_KEY and the values sealed with it: the registry of sealed columns every owning module
 * contributes to, the key's fingerprint (table encryption_key_fingerprints) checked at start, and
 * the re-seal behind `encryption:reseal`. The sealing itself is common/crypto/secret-box.ts.
 */
@Global()
@Module({})
export class EncryptionModule {
  static forRoot(options: EncryptionKeyCheckOptions): DynamicModule {
    return {
      module: EncryptionModule,
      providers: [SealedValues, ResealService, EncryptionKeyCheck, { provide: ENCRYPTION_KEY_CHECK_OPTIONS, useValue: options }],
      exports: [SealedValues, ResealService],
    };
  }
}
