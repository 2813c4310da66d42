import { collapseRepeatedLetters, foldText } from './normalize';

/**
 * A tiny pattern language keeps the lexicon readable and lets the same
 * canonicalization run on both sides of the match:
 *   "not work*"          token prefix: matches "not working", "not works"
 *   "charged ~ twice"    gap of 0-3 words inside one sentence
 *   "refund|reembolso"   "|" separates alternatives for a single token
 *   "money back, refund" "," separates whole-phrase alternatives
 *   "^ how do i"         "^" anchors the phrase at the start of a sentence
 */
export type LexiconEntry = readonly [pattern: string, weight: number, negatable?: boolean];

export interface CompiledEntry {
  readonly pattern: CompiledPattern;
  readonly weight: number;
  readonly negatable: boolean;
  readonly source: string;
}

/**
 * A pattern is matched against canonical text many times per message, so
 * besides the regex it keeps what lets a scan skip it (see pattern-index.ts):
 * the literal beginnings of its first word. A match can only start where a
 * word starts with one of them, so the regex is tried there only.
 */
export interface CompiledPattern {
  readonly id: number;
  /** Global: a full scan, for patterns that have no anchors. */
  readonly regex: RegExp;
  /** The same pattern, tried at one offset (lastIndex). */
  readonly sticky: RegExp;
  /** null when a phrase opens with a gap and could start anywhere. */
  readonly anchors: readonly string[] | null;
}

let nextPatternId = 0;

// Gaps are restricted to word tokens, so they can never cross a " . " boundary.
const GAP = '(?: [a-z0-9]+){0,3}';

function canonicalToken(raw: string): string {
  const token = collapseRepeatedLetters(foldText(raw));
  if (!/^[a-z0-9]+$/.test(token)) {
    // Fail loudly at module load: a malformed entry would silently never match.
    throw new Error(`Invalid lexicon token "${raw}"`);
  }
  return token;
}

function compileAlternative(alternative: string): string {
  const isPrefix = alternative.endsWith('*');
  const literal = canonicalToken(isPrefix ? alternative.slice(0, -1) : alternative);
  return isPrefix ? `${literal}[a-z0-9]*` : literal;
}

// Canonical text marks sentence ends with " . ", so a sentence starts either at
// the beginning of the text or right after such a marker.
const SENTENCE_START = '(?:^|(?<=\\. ))';

/**
 * Regex source of one phrase, plus the literals its first word starts with
 * (null if a gap comes before any word: then no word start bounds the match).
 */
function compilePhrase(phrase: string): { body: string; anchors: string[] | null } {
  let body = '';
  let needsSpace = false;
  let anchors: string[] | null | undefined;
  for (const token of phrase.trim().split(/\s+/)) {
    if (token === '~' || token === '^') {
      body += token === '~' ? GAP : SENTENCE_START;
      if (token === '~' && anchors === undefined) anchors = null;
      continue;
    }
    const alternatives = token.split('|');
    if (anchors === undefined) anchors = alternatives.map((alternative) => canonicalToken(alternative.replace(/\*$/, '')));
    body += `${needsSpace ? ' ' : ''}(?:${alternatives.map(compileAlternative).join('|')})`;
    needsSpace = true;
  }
  return { body, anchors: anchors ?? null };
}

/** Compiles one pattern string into regexes over canonical text. */
export function compilePattern(pattern: string): CompiledPattern {
  const phrases = pattern.split(',').map(compilePhrase);
  const source = `(?<![a-z0-9])(?:${phrases.map((phrase) => phrase.body).join('|')})(?![a-z0-9])`;
  const anchors = phrases.every((phrase) => phrase.anchors !== null) ? phrases.flatMap((phrase) => phrase.anchors ?? []) : null;
  return { id: nextPatternId++, regex: new RegExp(source, 'g'), sticky: new RegExp(source, 'y'), anchors };
}

export function compileEntries(entries: readonly LexiconEntry[]): CompiledEntry[] {
  return entries.map(([source, weight, negatable]) => ({
    pattern: compilePattern(source),
    weight,
    negatable: negatable === true,
    source,
  }));
}

/** Canonical form of a plain word list, for set lookups such as negators. */
export function canonicalWordSet(words: readonly string[]): ReadonlySet<string> {
  return new Set(words.map(canonicalToken));
}
