/**
 * Text normalization shared by the lexicon compiler and the scorer. Both sides
 * must go through the same folding, otherwise a lexicon entry written as
 * "stürzt" would never meet the text "sturzt" (or "stuuurzt").
 */

// URLs and e-mail addresses carry no intent words and would otherwise leak
// domain fragments ("bill", "pay") into the keyword matcher.
const TOP_LEVEL_DOMAINS = 'com|net|org|biz|info|io|xyz|ru|cn|me|ly|gl|co|app|example|site|online|shop|top|club';
const URL_PATTERN = new RegExp(
  `\\b(?:https?:\\/\\/|www\\.)\\S+|\\b[a-z0-9-]+(?:\\.[a-z0-9-]+)*\\.(?:${TOP_LEVEL_DOMAINS})(?:\\/\\S*)?`,
  'gi',
);
const EMAIL_PATTERN = /\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b/g;
// Every URL match contains one of these. Most feedback has no link, and this
// test is far cheaper than URL_PATTERN, which backtracks over every word.
const URL_HINT = new RegExp(`https?:\\/\\/|www\\.|\\.(?:${TOP_LEVEL_DOMAINS})`, 'i');

/** text.replace(URL_PATTERN, replacement), skipped when the text cannot hold a URL. */
export function replaceUrls(text: string, replacement: string): string {
  return URL_HINT.test(text) ? text.replace(URL_PATTERN, replacement) : text;
}

/** How many URL_PATTERN matches the text has. */
export function countUrls(text: string): number {
  return URL_HINT.test(text) ? (text.match(URL_PATTERN) ?? []).length : 0;
}

/** text.replace(EMAIL_PATTERN, replacement); an address needs an "@". */
export function replaceEmails(text: string, replacement: string): string {
  return text.includes('@') ? text.replace(EMAIL_PATTERN, replacement) : text;
}

const COMBINING_MARKS = /[\u0300-\u036f]/g;

/** Lowercase and strip accents so that "não", "nao" and "NÃO" compare equal. */
export function foldText(text: string): string {
  return text.normalize('NFD').replace(COMBINING_MARKS, '').toLowerCase().replace(/ß/g, 'ss').replace(/œ/g, 'oe').replace(/æ/g, 'ae');
}

/**
 * Doubled letters are collapsed everywhere (lexicon and text alike) so that
 * emphasis ("sooo goood") and common misspellings ("eror", "sucesful") land on
 * the same key as the correctly spelled word. Digits are left alone because
 * "500" and "50" mean different things.
 */
export function collapseRepeatedLetters(text: string): string {
  return text.replace(/([a-z])\1+/g, '$1');
}

/**
 * Produces the canonical form the lexicon is matched against: folded words
 * separated by single spaces, with " . " tokens at sentence boundaries so that
 * phrase patterns and negation windows do not leak across sentences.
 */
export function canonicalize(text: string): string {
  return canonicalizeFolded(foldText(text));
}

const APOSTROPHES = "'’`´";
const SENTENCE_PUNCTUATION = '.!?;…';
const WHITESPACE = /\s/;
// Reused between calls: the canonical form is at most three times as long as its input (a lone
// newline becomes " . "), and it is plain ASCII.
let output = Buffer.alloc(4096);

function isWordCode(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 48 && code <= 57);
}

function isLetterCode(code: number): boolean {
  return code >= 97 && code <= 122;
}

/**
 * canonicalize() for text already through foldText(), for callers that need
 * both forms. After links and addresses are blanked, one pass over the text:
 * - words are the runs of [a-z0-9], doubled letters collapsed inside them;
 * - "n't" glued to a word end keeps the negation on it ("doesn't" -> "doesnt");
 *   any other apostrophe separates words;
 * - a newline, a run of . ! ? ; … followed by whitespace, an apostrophe or the
 *   end, and U+0001 end a sentence: the words around it are joined by " . ";
 * - everything else separates words with one space; nothing leads or trails.
 * It replaced a chain of ten regex replacements (same output) because it runs
 * on the whole of every message for the spam rules.
 */
export function canonicalizeFolded(foldedText: string): string {
  const text = replaceUrls(replaceEmails(foldedText, ' '), ' ');
  if (output.length < text.length * 3) output = Buffer.alloc(text.length * 3);
  let length = 0;
  let sentenceEnd = false;
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (!isWordCode(code)) {
      sentenceEnd ||= endsSentence(text, i);
      i += 1;
      continue;
    }
    if (length > 0) length = writeSeparator(length, sentenceEnd);
    sentenceEnd = false;
    let previous = -1;
    while (i < text.length) {
      const next = text.charCodeAt(i);
      if (!isWordCode(next)) {
        // "n't" at a word end: skip the apostrophe and go on with the "t".
        if (previous === 110 && APOSTROPHES.includes(text[i]) && text.charCodeAt(i + 1) === 116 && !isWordBoundaryBlocked(text, i + 2)) {
          i += 1;
          continue;
        }
        break;
      }
      if (!(isLetterCode(next) && next === previous)) output[length++] = next;
      previous = next;
      i += 1;
    }
  }
  return output.toString('latin1', 0, length);
}

/** True when a word character follows at `index`, so that "\b" would not hold there. */
function isWordBoundaryBlocked(text: string, index: number): boolean {
  if (index >= text.length) return false;
  const code = text.charCodeAt(index);
  return isWordCode(code) || code === 95 || (code >= 65 && code <= 90);
}

/** Whether the separator character at `index` marks the end of a sentence. */
function endsSentence(text: string, index: number): boolean {
  const char = text[index];
  if (char === '\n' || char === '\u0001') return true;
  if (!SENTENCE_PUNCTUATION.includes(char)) return false;
  // The run of punctuation counts only when whitespace, an apostrophe or the end follows it.
  let end = index + 1;
  while (end < text.length && SENTENCE_PUNCTUATION.includes(text[end])) end += 1;
  return end === text.length || APOSTROPHES.includes(text[end]) || WHITESPACE.test(text[end]);
}

function writeSeparator(length: number, sentenceEnd: boolean): number {
  let at = length;
  output[at++] = 32;
  if (sentenceEnd) {
    output[at++] = 46;
    output[at++] = 32;
  }
  return at;
}
