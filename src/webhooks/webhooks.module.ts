import { Module } from '@nestjs/common';
import { DeliveriesController } from './delivery/deliveries.controller';
import { DeliveriesService } from './delivery/deliveries.service';
import { DeliveryPlanner } from './delivery/delivery-planner';
import { DeliveryRetention } from './delivery/delivery-retention.service';
import { WebhookSender } from './delivery/webhook-sender';

/**
 * Outbound webhooks (spec: Webhook endpoint, Webhooks, Events, Signature, Delivery): endpoints and
 * their URL rules (endpoints/), signed at-least-once delivery on due rows (delivery/), chat formats
 * (chat/), the delivery log and its retention.
 */
@Module({
  imports: [],
  controllers: [DeliveriesController],
  providers: [WebhookSender, DeliveryPlanner, DeliveriesService, DeliveryRetention],
  exports: [],
})
export class WebhooksModule {}
