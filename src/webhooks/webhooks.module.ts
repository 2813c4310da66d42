import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { DeliveriesController } from './delivery/deliveries.controller';
import { DeliveriesService } from './delivery/deliveries.service';
import { DeliveryPlanner } from './delivery/delivery-planner.service';
import { DeliveryRetention } from './delivery/delivery-retention.service';
import { WebhookSender } from './delivery/webhook-sender.service';
import { WebhookSecretBox } from './endpoints/endpoint-secrets';
import { EndpointsController } from './endpoints/endpoints.controller';
import { EndpointsService } from './endpoints/endpoints.service';
import { WebhookHostResolver } from './url-policy/host-resolver.service';
import { WebhookUrlPolicy } from './url-policy/webhook-url-policy.service';
import { ProjectsModule } from '../projects/projects.module';
import { AuthModule } from '../auth/auth.module';
import { EncryptionModule } from '../infra/encryption/encryption.module';
import { EventsModule } from '../events/events.module';
import { ErasureRegistryModule } from '../infra/erasure/erasure-registry.module';
import { WebhookDeliveryProcessor } from './delivery/webhook-delivery.processor';

/**
 * Outbound webhooks (spec: Webhook endpoint, Webhooks, Events, Signature, Delivery): endpoints and
 * their URL rules (endpoints/, url-policy/), signed at-least-once delivery on due rows (delivery/),
 * chat formats (chat/), the delivery log and its retention.
 */
@Module({
  imports: [ProjectsModule, AuthModule, EventsModule, EncryptionModule, ErasureRegistryModule],
  controllers: [EndpointsController, DeliveriesController],
  providers: [
    WebhookDeliveryProcessor,
    EndpointsService,
    WebhookHostResolver,
    WebhookUrlPolicy,
    {
      provide: WebhookSecretBox,
      useFactory: (config: AppConfig) => new WebhookSecretBox(config.encryptionKey),
      inject: [APP_CONFIG],
    },
    WebhookSender,
    DeliveryPlanner,
    DeliveriesService,
    DeliveryRetention,
  ],
  exports: [EndpointsService, DeliveriesService, WebhookSecretBox],
})
export class WebhooksModule {}
