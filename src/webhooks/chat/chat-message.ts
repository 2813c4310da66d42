import type { WebhookFormat } from '../entities/webhook-endpoint.entity';
import { CHAT_LIMITS, SLACK_MARKUP, discordMarkdown, slackMrkdwn, writeChatText } from './chat-markup';
import { type ChatText, chatText } from './chat-text';
import { discordEntryMessage, publishedEntry, slackEntryMessage } from './entry-message';

/** The event as every receiver gets it (spec: Events → Envelope). */
export interface WebhookEnvelope {
  id: string;
  type: string;
  created_at: string;
  project_id: string;
  data: Record<string, unknown>;
}

type ChatFormat = Exclude<WebhookFormat, 'json'>;

/**
 * One readable line about an event, for people reading a chat channel. Every `${…}` is a value
 * (see chat-text.ts): the chat format writes it as plain text, whoever typed it.
 */
function eventLine(envelope: WebhookEnvelope): ChatText {
  const data = envelope.data;
  // An erased person's email is null in the stored event, and so in a retry or a recovered delivery.
  const person = (email: unknown) => email ?? 'someone (erased)';
  switch (envelope.type) {
    case 'waitlist.signup.created':
      return chatText`New waitlist signup: ${person(data.email)} (position ${data.position})`;
    case 'waitlist.signups.invited':
      return chatText`Invited ${data.count} people from the waitlist`;
    case 'changelog.entry.published':
      return chatText`Published: ${data.title}`;
    case 'changelog.subscriber.created':
      return chatText`New changelog subscriber: ${person(data.email)}`;
    case 'webhook.test':
      return chatText`Test event: this channel receives webhook posts.`;
    case 'feedback.created':
      return chatText`New ${data.classification} feedback: ${data.summary}`;
    default:
      return chatText`${envelope.type} (${envelope.id})`;
  }
}

/**
 * The JSON body a chat endpoint receives instead of the envelope (spec: Delivery 3): `chat_a` gets
 * `{text, blocks}` (the line, also as a section block), `chat_b` gets `{content}`. A published
 * changelog entry gets a rich message on top of the line: Slack-style `blocks` (chat_a) or a
 * Discord-style embed (chat_b), see entry-message.ts (links only for public entries; cover image
 * and button only as https links).
 *
 * Every text of every event is written by the format's writer (chat-markup.ts), here or in
 * entry-message.ts, so no event, present or future, posts a value as markup. The line goes in a
 * Slack `verbatim` text object, which Slack leaves unparsed (its top-level `text` is only the
 * notification fallback once there are blocks), and every Discord body refuses mentions.
 */
export function chatMessage(format: ChatFormat, envelope: WebhookEnvelope): Record<string, unknown> {
  const line = eventLine(envelope);
  const entry = envelope.type === 'changelog.entry.published' ? publishedEntry(envelope.data) : null;
  if (format === 'chat_a') {
    if (entry) return slackEntryMessage(entry, line);
    return { text: writeChatText(SLACK_MARKUP, line, CHAT_LIMITS.slackText), blocks: [{ type: 'section', text: slackMrkdwn(line) }] };
  }
  const body = entry ? discordEntryMessage(entry, line) : { content: discordMarkdown(line, CHAT_LIMITS.discordContent) };
  // Discord pings whoever a message names (@everyone, users, roles) unless told otherwise; a post
  // of ours pings nobody, whatever its text says.
  return { ...body, allowed_mentions: { parse: [] } };
}
