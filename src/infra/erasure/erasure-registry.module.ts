import { Module } from '@nestjs/common';
import { ErasureRegistry } from './erasure-registry.service';

/** The one erasure registry: a module that contributes to it imports this module (one instance for all). */
@Module({
  providers: [ErasureRegistry],
  exports: [ErasureRegistry],
})
export class ErasureRegistryModule {}
