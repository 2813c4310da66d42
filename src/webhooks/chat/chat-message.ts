import type { WebhookFormat } from '../entities/webhook-endpoint.entity';

/** The event as every receiver gets it (spec: Events → Envelope). */
export interface WebhookEnvelope {
  id: string;
  type: string;
  created_at: string;
  project_id: string;
  data: Record<string, unknown>;
}

/** One readable line about an event, for people reading a chat channel. */
export function eventLine(envelope: WebhookEnvelope): string {
  const data = envelope.data;
  switch (envelope.type) {
    case 'waitlist.signup.created':
      return `New waitlist signup: ${String(data.email)} (position ${String(data.position)})`;
    case 'waitlist.signups.invited':
      return `Invited ${String(data.count)} people from the waitlist`;
    case 'changelog.entry.published':
      return `Published: ${String(data.title)}`;
    case 'changelog.subscriber.created':
      return `New changelog subscriber: ${String(data.email)}`;
    case 'feedback.created':
      return `New ${String(data.classification)} feedback: ${String(data.summary)}`;
    default:
      return `${envelope.type} (${envelope.id})`;
  }
}

/**
 * The JSON body a chat endpoint receives instead of the envelope (spec: Delivery 3): `chat_a`
 * takes `{text}`, `chat_b` takes `{content}`. Richer messages for some events build on this.
 */
export function chatMessage(format: Exclude<WebhookFormat, 'json'>, envelope: WebhookEnvelope): Record<string, unknown> {
  const line = eventLine(envelope);
  return format === 'chat_a' ? { text: line } : { content: line };
}
