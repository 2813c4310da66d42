import { markdownExcerpt } from '../../common/markdown/markdown-render';
import {
  CHAT_LIMITS,
  SLACK_MARKUP,
  absoluteHttpsUrl,
  cutPlainText,
  discordMarkdown,
  slackMrkdwn,
  slackPlainText,
  writeChatText,
} from './chat-markup';
import { type ChatText, chatLink, chatText, chatValue, joinChatText } from './chat-text';

/** The fields of `changelog.entry.published` a chat message shows (spec: Events → Event types). */
interface PublishedEntry {
  title: string;
  excerpt: string;
  /** The entry's page, only for public entries: signed-in and segment entries get no link. */
  entryUrl: string | null;
  coverImageUrl: string | null;
  cta: { label: string; url: string } | null;
  category: string | null;
  labels: string[];
  version: string | null;
}

const EXCERPT_LENGTH = 280;

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim().length > 0 ? value.trim() : null);

/** Reads the event data defensively: a chat post must never fail over a missing optional field. */
export function publishedEntry(data: Record<string, unknown>): PublishedEntry {
  const publicEntry = data.audience === 'public';
  const ctaUrl = absoluteHttpsUrl(data.cta_url);
  const ctaLabel = text(data.cta_label);
  return {
    title: text(data.title) ?? 'New changelog entry',
    excerpt: typeof data.body_markdown === 'string' ? markdownExcerpt(data.body_markdown, EXCERPT_LENGTH) : '',
    entryUrl: publicEntry ? absoluteHttpsUrl(data.public_url) : null,
    coverImageUrl: absoluteHttpsUrl(data.cover_image_url),
    cta: ctaUrl ? { label: ctaLabel ?? 'Learn more', url: ctaUrl } : null,
    category: text(data.category),
    labels: Array.isArray(data.labels) ? data.labels.filter((label): label is string => typeof label === 'string') : [],
    version: text(data.version),
  };
}

/**
 * A Slack-style `blocks` message (chat_a), with `text` as the notification fallback. Every text
 * goes through slackMrkdwn or slackPlainText; the entry's page and the button are the only links.
 */
export function slackEntryMessage(entry: PublishedEntry, fallback: ChatText): Record<string, unknown> {
  const title = entry.entryUrl ? chatText`*${chatLink(entry.entryUrl, entry.title)}*` : chatText`*${entry.title}*`;
  const blocks: Record<string, unknown>[] = [
    { type: 'section', text: slackMrkdwn(entry.excerpt ? chatText`${title}\n${entry.excerpt}` : title) },
  ];
  if (entry.coverImageUrl) {
    blocks.push({ type: 'image', image_url: entry.coverImageUrl, alt_text: cutPlainText(entry.title, CHAT_LIMITS.slackAltText) });
  }
  const context = details(entry);
  if (context.length > 0) blocks.push({ type: 'context', elements: [slackMrkdwn(joinChatText(context, ' · '))] });
  const buttons: Record<string, unknown>[] = [];
  if (entry.cta) {
    const label = slackPlainText(entry.cta.label, CHAT_LIMITS.slackButton);
    buttons.push({ type: 'button', text: label, url: entry.cta.url, style: 'primary' });
  }
  if (entry.entryUrl) {
    buttons.push({ type: 'button', text: slackPlainText('Read the entry', CHAT_LIMITS.slackButton), url: entry.entryUrl });
  }
  if (buttons.length > 0) blocks.push({ type: 'actions', elements: buttons });
  return { text: writeChatText(SLACK_MARKUP, fallback, CHAT_LIMITS.slackText), blocks };
}

/** A Discord-style embed (chat_b), with `content` as the line above it; every text is discordMarkdown. */
export function discordEntryMessage(entry: PublishedEntry, fallback: ChatText): Record<string, unknown> {
  const readLink = entry.entryUrl ? chatLink(entry.entryUrl, 'Read the entry') : null;
  const description = [entry.excerpt ? chatValue(entry.excerpt) : null, readLink].filter((part): part is ChatText => part !== null);
  const embed: Record<string, unknown> = { title: discordMarkdown(chatValue(entry.title), CHAT_LIMITS.discordTitle) };
  if (description.length > 0) embed.description = discordMarkdown(joinChatText(description, '\n\n'), CHAT_LIMITS.discordDescription);
  if (entry.entryUrl) embed.url = entry.entryUrl;
  if (entry.coverImageUrl) embed.image = { url: entry.coverImageUrl };
  const fields: { name: string; value: string; inline: boolean }[] = [];
  const field = (name: ChatText, value: ChatText, inline: boolean) =>
    fields.push({
      name: discordMarkdown(name, CHAT_LIMITS.discordFieldName),
      value: discordMarkdown(value, CHAT_LIMITS.discordFieldValue),
      inline,
    });
  if (entry.category) field(chatText`Category`, chatValue(entry.category), true);
  if (entry.version) field(chatText`Version`, chatValue(entry.version), true);
  if (entry.labels.length > 0) field(chatText`Labels`, chatValue(entry.labels.join(', ')), true);
  if (entry.cta) field(chatValue(entry.cta.label), chatLink(entry.cta.url, entry.cta.label), false);
  if (fields.length > 0) embed.fields = fields;
  return { content: discordMarkdown(fallback, CHAT_LIMITS.discordContent), embeds: [embed] };
}

function details(entry: PublishedEntry): ChatText[] {
  const parts: ChatText[] = [];
  if (entry.category) parts.push(chatValue(entry.category));
  if (entry.version) parts.push(chatValue(entry.version));
  if (entry.labels.length > 0) parts.push(chatValue(entry.labels.join(', ')));
  return parts;
}
