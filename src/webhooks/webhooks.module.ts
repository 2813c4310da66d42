import { Module } from '@nestjs/common';

/**
 * Outbound webhooks (spec: Webhook endpoint, Webhooks, Events, Signature, Delivery): endpoints and
 * their URL rules (endpoints/), signed at-least-once delivery on due rows (delivery/), chat formats
 * (chat/), the delivery log and its retention.
 */
@Module({
  imports: [],
  controllers: [],
  providers: [],
  exports: [],
})
export class WebhooksModule {}
