import type { WebhookFormat } from '../entities/webhook-endpoint.entity';
import { discordEntryMessage, publishedEntry, slackEntryMessage } from './entry-message';

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
    case 'webhook.test':
      return 'Test event: this channel receives webhook posts.';
    case 'feedback.created':
      return `New ${String(data.classification)} feedback: ${String(data.summary)}`;
    default:
      return `${envelope.type} (${envelope.id})`;
  }
}

/**
 * The JSON body a chat endpoint receives instead of the envelope (spec: Delivery 3): `chat_a`
 * takes `{text}`, `chat_b` takes `{content}`. A published changelog entry gets a rich message on
 * top of the line: Slack-style `blocks` (chat_a) or a Discord-style embed (chat_b), see
 * entry-message.ts (links only for public entries; cover image and button only as https links).
 */
export function chatMessage(format: Exclude<WebhookFormat, 'json'>, envelope: WebhookEnvelope): Record<string, unknown> {
  const line = eventLine(envelope);
  if (envelope.type === 'changelog.entry.published') {
    const entry = publishedEntry(envelope.data);
    return format === 'chat_a' ? slackEntryMessage(entry, line) : discordEntryMessage(entry, line);
  }
  return format === 'chat_a' ? { text: line } : { content: line };
}
