import { Global, Module } from '@nestjs/common';
import { ErasureRegistry } from './erasure-registry';

/** The one erasure registry, global so that every module can contribute to it. */
@Global()
@Module({
  providers: [ErasureRegistry],
  exports: [ErasureRegistry],
})
export class ErasureRegistryModule {}
