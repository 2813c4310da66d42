import { Module } from '@nestjs/common';
import { MailService } from './mail.service';
import { ErasureRegistryModule } from '../erasure/erasure-registry.module';
import { MailSendProcessor } from './mail-send.processor';

@Module({
  imports: [ErasureRegistryModule],
  providers: [MailSendProcessor, MailService],
  exports: [MailService],
})
export class MailModule {}
