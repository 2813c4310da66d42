import { Module } from '@nestjs/common';
import { MailService } from './mail.service';
import { ErasureRegistryModule } from '../erasure/erasure-registry.module';

@Module({
  imports: [ErasureRegistryModule],
  providers: [MailService],
  exports: [MailService],
})
export class MailModule {}
