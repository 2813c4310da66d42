import { Module } from '@nestjs/common';
import { BillingProvider } from './billing-provider.client';
import { BillingWebhookController } from './billing-webhook.controller';
import { BillingWebhooksService } from './billing-webhooks.service';
import { BillingController } from './billing.controller';
import { BillingService } from './billing.service';
import { ProjectsModule } from '../projects/projects.module';
import { AccountsModule } from '../accounts/accounts.module';

@Module({
  imports: [ProjectsModule, AccountsModule],
  controllers: [BillingController, BillingWebhookController],
  providers: [BillingProvider, BillingService, BillingWebhooksService],
  exports: [BillingService],
})
export class BillingModule {}
