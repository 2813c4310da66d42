import { DynamicModule, Module } from '@nestjs/common';
import { ENCRYPTION_KEY_CHECK_OPTIONS, EncryptionKeyCheck, type EncryptionKeyCheckOptions } from './encryption-key-check.service';
import { ResealService } from './reseal.service';
import { SealedValues } from './sealed-values.service';

/**
 * ENCRYPTION_KEY and the values sealed with it: the registry of sealed columns every owning module
 * contributes to (a module that seals values imports this one), and the re-seal behind
 * `encryption:reseal`. The sealing itself is common/crypto/secret-box.ts. The application adds the
 * start-up check of the key's fingerprint with `EncryptionModule.forRoot`.
 */
@Module({
  providers: [SealedValues, ResealService],
  exports: [SealedValues, ResealService],
})
export class EncryptionModule {
  static forRoot(options: EncryptionKeyCheckOptions): DynamicModule {
    return {
      module: EncryptionKeyCheckModule,
      imports: [EncryptionModule],
      providers: [EncryptionKeyCheck, { provide: ENCRYPTION_KEY_CHECK_OPTIONS, useValue: options }],
    };
  }
}

/**
 * ENCRYPTION_KEY's fingerprint (table encryption_key_fingerprints), checked at start against the
 * sealed values registered in the one EncryptionModule.
 */
@Module({})
class EncryptionKeyCheckModule {}
