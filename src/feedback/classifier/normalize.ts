/**
 * Text normalization shared by the lexicon compiler and the scorer. Both sides
 * must go through the same folding, otherwise a lexicon entry written as
 * "stürzt" would never meet the text "sturzt" (or "stuuurzt").
 */

// URLs and e-mail addresses carry no intent words and would otherwise leak
// domain fragments ("bill", "pay") into the keyword matcher.
export const URL_PATTERN =
  /\b(?:https?:\/\/|www\.)\S+|\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|net|org|biz|info|io|xyz|ru|cn|me|ly|gl|co|app|example|site|online|shop|top|club)(?:\/\S*)?/gi;
const EMAIL_PATTERN = /\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b/g;

// Placeholder that survives the punctuation purge and later becomes a "." token.
const SENTENCE_MARK = ' \u0001 ';
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
  const folded = foldText(text)
    .replace(EMAIL_PATTERN, ' ')
    .replace(URL_PATTERN, ' ')
    // English contractions keep their negation glued on: "doesn't" -> "doesnt".
    .replace(/n['’`´]t\b/g, 'nt')
    .replace(/['’`´]/g, ' ')
    .replace(/\r?\n+/g, SENTENCE_MARK)
    .replace(/[.!?;…]+(?=\s|$)/g, SENTENCE_MARK)
    // U+0001 is the sentence mark set above; no text keeps one after folding.
    // eslint-disable-next-line no-control-regex
    .replace(/[^a-z0-9\u0001]+/g, ' ')
    // eslint-disable-next-line no-control-regex
    .replace(/\u0001/g, ' . ');
  return collapseRepeatedLetters(folded)
    .replace(/(?:\s*\.\s*)+/g, ' . ')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.]+|[\s.]+$/g, '')
    .trim();
}

/** Splits canonical text into tokens; sentence breaks survive as "." tokens. */
export function tokenize(canonical: string): string[] {
  return canonical.length === 0 ? [] : canonical.split(' ');
}
