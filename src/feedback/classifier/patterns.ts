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
  readonly regex: RegExp;
  readonly weight: number;
  readonly negatable: boolean;
  readonly pattern: string;
}

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

function compilePhrase(phrase: string): string {
  let body = '';
  let needsSpace = false;
  for (const token of phrase.trim().split(/\s+/)) {
    if (token === '~' || token === '^') {
      body += token === '~' ? GAP : SENTENCE_START;
      continue;
    }
    const alternatives = token.split('|').map(compileAlternative);
    body += `${needsSpace ? ' ' : ''}(?:${alternatives.join('|')})`;
    needsSpace = true;
  }
  return body;
}

/** Compiles one pattern string into a global regex over canonical text. */
export function compilePattern(pattern: string): RegExp {
  const phrases = pattern.split(',').map(compilePhrase);
  return new RegExp(`(?<![a-z0-9])(?:${phrases.join('|')})(?![a-z0-9])`, 'g');
}

export function compileEntries(entries: readonly LexiconEntry[]): CompiledEntry[] {
  return entries.map(([pattern, weight, negatable]) => ({
    regex: compilePattern(pattern),
    weight,
    negatable: negatable === true,
    pattern,
  }));
}

/** Start offsets of every match; regexes are global so lastIndex is reset here. */
export function matchOffsets(regex: RegExp, canonical: string): number[] {
  const offsets: number[] = [];
  for (const match of canonical.matchAll(regex)) {
    offsets.push(match.index ?? 0);
  }
  return offsets;
}

/** True when any of the patterns occurs in the canonical text. */
export function anyMatch(regexes: readonly RegExp[], canonical: string): boolean {
  return regexes.some((regex) => matchOffsets(regex, canonical).length > 0);
}

/** Canonical form of a plain word list, for set lookups such as negators. */
export function canonicalWordSet(words: readonly string[]): ReadonlySet<string> {
  return new Set(words.map(canonicalToken));
}
