import { markdownExcerpt } from '../../common/markdown/markdown-render';

/** The fields of `changelog.entry.published` a chat message shows (spec: Events → Event types). */
export interface PublishedEntry {
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

/** An absolute https:// link, or null: relative or other-scheme links never reach a chat message. */
export function absoluteHttpsUrl(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.hostname.length > 0 ? url.href : null;
  } catch {
    return null;
  }
}

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

// Slack's mrkdwn treats &, < and > as control characters; everything else is literal enough.
const slackEscape = (value: string): string => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A Slack-style `blocks` message (chat_a), with `text` as the notification fallback. */
export function slackEntryMessage(entry: PublishedEntry, fallback: string): Record<string, unknown> {
  const title = entry.entryUrl ? `*<${entry.entryUrl}|${slackEscape(entry.title)}>*` : `*${slackEscape(entry.title)}*`;
  const blocks: Record<string, unknown>[] = [
    { type: 'section', text: { type: 'mrkdwn', text: entry.excerpt ? `${title}\n${slackEscape(entry.excerpt)}` : title } },
  ];
  if (entry.coverImageUrl) blocks.push({ type: 'image', image_url: entry.coverImageUrl, alt_text: entry.title });
  const context = details(entry);
  if (context.length > 0) blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: slackEscape(context.join(' · ')) }] });
  const buttons: Record<string, unknown>[] = [];
  if (entry.cta)
    buttons.push({ type: 'button', text: { type: 'plain_text', text: entry.cta.label }, url: entry.cta.url, style: 'primary' });
  if (entry.entryUrl) buttons.push({ type: 'button', text: { type: 'plain_text', text: 'Read the entry' }, url: entry.entryUrl });
  if (buttons.length > 0) blocks.push({ type: 'actions', elements: buttons });
  return { text: fallback, blocks };
}

/** A Discord-style embed (chat_b), with `content` as the line above it. */
export function discordEntryMessage(entry: PublishedEntry, fallback: string): Record<string, unknown> {
  const lines = [entry.excerpt];
  if (entry.entryUrl) lines.push(`[Read the entry](${entry.entryUrl})`);
  const embed: Record<string, unknown> = {
    title: entry.title.slice(0, 256),
    description: lines.filter(Boolean).join('\n\n').slice(0, 4096),
  };
  if (entry.entryUrl) embed.url = entry.entryUrl;
  if (entry.coverImageUrl) embed.image = { url: entry.coverImageUrl };
  const fields: { name: string; value: string; inline: boolean }[] = [];
  if (entry.category) fields.push({ name: 'Category', value: entry.category, inline: true });
  if (entry.version) fields.push({ name: 'Version', value: entry.version, inline: true });
  if (entry.labels.length > 0) fields.push({ name: 'Labels', value: entry.labels.join(', '), inline: true });
  if (entry.cta) fields.push({ name: entry.cta.label.slice(0, 256), value: `[${entry.cta.label}](${entry.cta.url})`, inline: false });
  if (fields.length > 0) embed.fields = fields;
  return { content: fallback, embeds: [embed] };
}

function details(entry: PublishedEntry): string[] {
  const parts: string[] = [];
  if (entry.category) parts.push(entry.category);
  if (entry.version) parts.push(entry.version);
  if (entry.labels.length > 0) parts.push(entry.labels.join(', '));
  return parts;
}
