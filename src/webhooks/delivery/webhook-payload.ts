import type { WebhookFormat } from '../entities/webhook-endpoint.entity';
import { type WebhookEnvelope, chatMessage } from '../chat/chat-message';

/** The envelope of a stored event (spec: Events → Envelope); the same bytes on every retry. */
export function envelopeOf(event: {
  id: string;
  type: string;
  createdAt: Date;
  projectId: string;
  data: Record<string, unknown>;
}): WebhookEnvelope {
  return { id: event.id, type: event.type, created_at: event.createdAt.toISOString(), project_id: event.projectId, data: event.data };
}

/** What an endpoint of this format receives: the envelope (json), or a chat service's message. */
export function payloadFor(format: WebhookFormat, envelope: WebhookEnvelope): Record<string, unknown> {
  return format === 'json' ? { ...envelope } : chatMessage(format, envelope);
}

/** The type of the event `POST /v1/webhooks/{id}/test` sends; never written to the outbox. */
export const TEST_EVENT_TYPE = 'webhook.test';
