import type { ChatText } from './chat-text';

/**
 * How one chat format writes a ChatText: values become plain text, links become that format's
 * link. Values are written one token per character, so cutting a text to a length limit never
 * splits an escape in two.
 */
interface ChatMarkup {
  valueTokens(value: string): string[];
  link(url: string, label: string): string;
}

const ELLIPSIS = '…';

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

/**
 * A link target that cannot end the link early in either format: `href` is ASCII already, and
 * everything outside the RFC 3986 characters, plus ( ) [ ], is percent-encoded. A `)` would end a
 * Discord link (and let the rest of the URL start another), a `|` or `>` a Slack one.
 */
export function linkTarget(url: string): string | null {
  const href = absoluteHttpsUrl(url);
  if (!href) return null;
  return href.replace(/[^A-Za-z0-9\-._~:/?#@!$&'*+,;=%]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

// Line breaks would let a value start a line of its own (a quote, a heading, a fake second event);
// bidi controls would reorder the text after the value. Neither belongs in a one-line value.
const LINE_AND_CONTROL = /[\p{Cc}\u2028\u2029]+/gu;
const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/g;

function plainValue(value: string): string {
  return value.replace(BIDI_CONTROL, '').replace(LINE_AND_CONTROL, ' ');
}

const SLACK_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/**
 * Slack-style mrkdwn (chat_a). `&`, `<` and `>` are its only control characters: every mention
 * (`<!channel>`, `<@U…>`, `<#C…>`, `<!subteam^…>`) and every link (`<url>`, `<url|text>`) starts
 * with `<`, so escaping them leaves a value as text. Bare URLs and `@channel` written as words are
 * left alone by Slack only in text objects marked `verbatim` (see slackMrkdwn).
 */
export const SLACK_MARKUP: ChatMarkup = {
  valueTokens: (value) => Array.from(plainValue(value), (char) => SLACK_ENTITIES[char] ?? char),
  link: (url, label) => {
    const target = linkTarget(url);
    const text = SLACK_MARKUP.valueTokens(label).join('');
    return target ? `<${target.replace(/&/g, '&amp;')}|${text}>` : text;
  },
};

// Markdown characters Discord reads anywhere in a line; a backslash before one shows it as is.
const DISCORD_INLINE = new Set(['\\', '*', '_', '~', '`', '|', '<', '>', '[', ']', '#']);
// `-` and `+` start a list item, and `-#` small text, only at the start of a line.
const DISCORD_LINE_START = new Set(['-', '+']);

/**
 * Discord-style markdown (chat_b). A backslash before any punctuation shows it as text, so: `<`
 * (user, role and channel mentions, `<url>`), `[` (masked links `[text](url)`), formatting
 * characters, `@everyone`/`@here`, and the `:` of `://`, without which Discord does not turn a bare
 * URL into a link. Pings are refused separately by `allowed_mentions` (chat-message.ts).
 */
export const DISCORD_MARKUP: ChatMarkup = {
  valueTokens: (value) => {
    const chars = Array.from(plainValue(value));
    let lineStart = true;
    return chars.map((char, index) => {
      const next = () => chars.slice(index + 1, index + 9).join('');
      const escape =
        DISCORD_INLINE.has(char) ||
        (lineStart && DISCORD_LINE_START.has(char)) ||
        (char === '@' && /^(everyone|here)/i.test(next())) ||
        (char === ':' && next().startsWith('//'));
      lineStart &&= char === ' ';
      return escape ? `\\${char}` : char;
    });
  },
  link: (url, label) => {
    const target = linkTarget(url);
    const text = DISCORD_MARKUP.valueTokens(label).join('');
    return target ? `[${text}](${target})` : text;
  },
};

/** The text in one format, cut with an ellipsis to `maxLength` (a link is kept whole or left out). */
export function writeChatText(markup: ChatMarkup, text: ChatText, maxLength = Number.POSITIVE_INFINITY): string {
  const tokens = text.parts.flatMap((part) => {
    if (part.kind === 'own') return Array.from(part.text);
    if (part.kind === 'value') return markup.valueTokens(part.text);
    return [markup.link(part.url, part.label)];
  });
  const whole = tokens.join('');
  if (whole.length <= maxLength) return whole;
  let cut = '';
  for (const token of tokens) {
    if (cut.length + token.length > maxLength - ELLIPSIS.length) break;
    cut += token;
  }
  return `${cut}${ELLIPSIS}`;
}

/** Plain text (no markup at all) cut to `maxLength` characters without splitting a surrogate pair. */
export function cutPlainText(value: string, maxLength: number): string {
  if (value.length <= maxLength) return value;
  let cut = '';
  for (const char of value) {
    if (cut.length + char.length > maxLength - ELLIPSIS.length) break;
    cut += char;
  }
  return `${cut}${ELLIPSIS}`;
}

/** The receivers' length limits: a longer text makes them refuse the whole message. */
export const CHAT_LIMITS = {
  slackText: 3000,
  slackButton: 75,
  slackAltText: 2000,
  discordContent: 2000,
  discordTitle: 256,
  discordDescription: 4096,
  discordFieldName: 256,
  discordFieldValue: 1024,
} as const;

/**
 * A Slack mrkdwn text object. `verbatim` stops Slack's own pass over the text, which would turn
 * bare URLs, emails and channel names into links and parse some mentions written as words.
 */
export function slackMrkdwn(text: ChatText): { type: 'mrkdwn'; text: string; verbatim: true } {
  return { type: 'mrkdwn', text: writeChatText(SLACK_MARKUP, text, CHAT_LIMITS.slackText), verbatim: true };
}

/** A Slack plain_text object shown exactly as written: no markup, and `:name:` stays words, not an emoji. */
export function slackPlainText(value: string, maxLength: number): { type: 'plain_text'; text: string; emoji: false } {
  return { type: 'plain_text', text: cutPlainText(plainValue(value), maxLength), emoji: false };
}

/** Discord markdown for one field of a message or embed. */
export function discordMarkdown(text: ChatText, maxLength: number): string {
  return writeChatText(DISCORD_MARKUP, text, maxLength);
}
