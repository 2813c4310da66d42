/**
 * Text for a chat message, kept in parts until one chat format writes it (chat-markup.ts). Only
 * the service's own words (the literal parts of a `chatText` template) and its own links can carry
 * markup; every interpolated value is a value, which the format's writer turns into plain text.
 * A value read from an event (a visitor's feedback, an email, an owner's title) is a string, never
 * a ChatText, so no event's data can reach a chat channel as markup.
 */
type ChatPart = { kind: 'own'; text: string } | { kind: 'value'; text: string } | { kind: 'link'; url: string; label: string };

export class ChatText {
  constructor(readonly parts: readonly ChatPart[]) {}
}

/** The template's literal text is the service's own; each `${value}` is a value, or spliced in when it is a ChatText. */
export function chatText(strings: TemplateStringsArray, ...values: unknown[]): ChatText {
  const parts: ChatPart[] = [];
  strings.forEach((literal, index) => {
    if (literal.length > 0) parts.push({ kind: 'own', text: literal });
    if (index < values.length) parts.push(...chatValue(values[index]).parts);
  });
  return new ChatText(parts);
}

/** One value from outside, written as plain text; a ChatText stays what it is. */
export function chatValue(value: unknown): ChatText {
  if (value instanceof ChatText) return value;
  return new ChatText([{ kind: 'value', text: typeof value === 'string' ? value : String(value) }]);
}

/**
 * A link the service chose (an entry's page, the owner's button): the label is written as plain
 * text, and a URL that is not an absolute https link leaves only the label.
 */
export function chatLink(url: string, label: string): ChatText {
  return new ChatText([{ kind: 'link', url, label }]);
}

export function joinChatText(texts: readonly ChatText[], separator: string): ChatText {
  const parts: ChatPart[] = [];
  texts.forEach((text, index) => {
    if (index > 0 && separator.length > 0) parts.push({ kind: 'own', text: separator });
    parts.push(...text.parts);
  });
  return new ChatText(parts);
}
