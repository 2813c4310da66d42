/**
 * One-line summary for list views and notifications: the first meaningful
 * sentence of the feedback, capped at 140 characters.
 */
export const SUMMARY_MAX_LENGTH = 140;

const ELLIPSIS = '…';
const EMPTY_SUMMARY = 'Empty feedback.';

// Salutations carry no content; skipping them gets to the point faster.
const GREETING_ONLY = /^(?:hi|hello|hey|dear|hola|bonjour|salut|hallo|ola|olá|oi|buenos dias|buenas|guten tag)\b[\s\w,!.'’-]{0,30}[,!.]?$/i;

// CJK full stops are not followed by a space, Latin ones are.
const SENTENCE_BREAK = /\r?\n+|(?<=[.!?])\s+|(?<=[。！？])/;

function isMeaningful(sentence: string): boolean {
  const letters = sentence.match(/[\p{L}\p{N}]/gu)?.length ?? 0;
  return letters >= 3 && !GREETING_ONLY.test(sentence);
}

// Measured in UTF-16 units (String#length) without splitting surrogate pairs.
function prefixWithin(text: string, maxUnits: number): string {
  let prefix = '';
  for (const char of text) {
    if (prefix.length + char.length > maxUnits) break;
    prefix += char;
  }
  return prefix;
}

/** Cuts at the last word boundary that leaves room for the ellipsis. */
function truncateAtWord(text: string, maxLength: number = SUMMARY_MAX_LENGTH): string {
  if (text.length <= maxLength) return text;
  const room = prefixWithin(text, maxLength - ELLIPSIS.length);
  const lastSpace = room.lastIndexOf(' ');
  // A single giant "word" (e.g. a pasted token) has no boundary to respect.
  const cut = lastSpace >= room.length / 2 ? room.slice(0, lastSpace) : room;
  const tidy = cut.replace(/[\s,;:.!?-]+$/u, '');
  return `${tidy.length > 0 ? tidy : cut}${ELLIPSIS}`;
}

/** First meaningful sentence, whitespace collapsed, never empty, no newlines. */
export function summarize(text: string): string {
  let first: string | undefined;
  // Sentences are tidied one at a time and only up to the chosen one: the answer is usually the first.
  for (const piece of text.split(SENTENCE_BREAK)) {
    const sentence = piece.replace(/\s+/g, ' ').trim();
    if (sentence.length === 0) continue;
    if (isMeaningful(sentence)) return truncateAtWord(sentence);
    first ??= sentence;
  }
  return first === undefined ? EMPTY_SUMMARY : truncateAtWord(first);
}
