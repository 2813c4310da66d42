import { SCORED_CLASSES } from '../lexicon';
import { URL_PATTERN, canonicalize, collapseRepeatedLetters, foldText } from '../normalize';
import { addSurfaceCues, scoreText } from '../scoring';
import { spamEvidence } from '../spam';

/**
 * Feature extraction for the linear model, shared by training and run time so
 * the two can never disagree. Every feature is hashed into a fixed number of
 * buckets (the hashing trick): no vocabulary is shipped, unseen words still
 * land somewhere, and the weights file has a fixed size.
 *
 * Text features, computed on the folded text (lowercase, no accents, doubled
 * letters collapsed so "soooo goood" meets "so god" like the lexicon does):
 * - word unigrams and bigrams inside one sentence ("not work", "charged twice");
 * - character 3- to 5-grams inside word boundaries (" crash", "stur", "rembo"):
 *   they carry typos, inflections and the five languages' shared stems;
 * - a few symbols the words lose: "?", "!", a currency sign, each emoji, links.
 *
 * Meta features (value 1, not scaled by length): category hint, rating and a
 * length band, because "broken" and a 40-line report are read differently.
 */
export interface MetaInput {
  readonly categoryHint: string | null;
  readonly rating: number | null;
}

export type FeatureSink = (bucket: number) => void;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const MIN_NGRAM = 3;
const MAX_NGRAM = 5;
// Pasted tokens and hashes carry no intent; their first characters are enough.
const MAX_WORD_FOR_NGRAMS = 24;

// Distinct seeds keep feature kinds apart: the word "bug" is not the 3-gram "bug".
const SEED_WORD = step(FNV_OFFSET, 0x77);
const SEED_BIGRAM = step(FNV_OFFSET, 0x62);
const SEED_CHAR = step(FNV_OFFSET, 0x63);
const SEED_SYMBOL = step(FNV_OFFSET, 0x73);
const SEED_META = step(FNV_OFFSET, 0x6d);

// U+0001 marks where a link or address was; no folded text keeps one otherwise.
// eslint-disable-next-line no-control-regex
const TOKEN = /[a-z0-9]+|[?!]|[$€£¥]|\p{Extended_Pictographic}|[.;:\n\r]|\u0001/gu;
const EMAIL = /\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b/g;
const LINK_MARK = ' \u0001 ';

function step(hash: number, code: number): number {
  return Math.imul(hash ^ code, FNV_PRIME);
}

function hashString(seed: number, text: string): number {
  let hash = seed;
  for (let i = 0; i < text.length; i += 1) hash = step(hash, text.charCodeAt(i));
  return hash;
}

/** Final avalanche (murmur3 fmix32) so that the low bits used as bucket are well mixed. */
function mix(hash: number): number {
  let h = hash ^ (hash >>> 16);
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Folded text the features are read from; links and addresses become one marker. */
export function featureText(text: string): string {
  return collapseRepeatedLetters(foldText(text).replace(EMAIL, LINK_MARK).replace(URL_PATTERN, LINK_MARK));
}

function emitCharNgrams(word: string, mask: number, sink: FeatureSink): number {
  const padded = ` ${word.length > MAX_WORD_FOR_NGRAMS ? word.slice(0, MAX_WORD_FOR_NGRAMS) : word} `;
  let emitted = 0;
  for (let start = 0; start + MIN_NGRAM <= padded.length; start += 1) {
    let hash = SEED_CHAR;
    const end = Math.min(padded.length, start + MAX_NGRAM);
    for (let i = start; i < end; i += 1) {
      hash = step(hash, padded.charCodeAt(i));
      if (i - start + 1 >= MIN_NGRAM) {
        sink(mix(hash) & mask);
        emitted += 1;
      }
    }
  }
  return emitted;
}

/**
 * Calls `sink` with the bucket of every text feature occurrence (repeats
 * included) and returns how many there were, plus the number of words.
 */
export function extractTextFeatures(text: string, buckets: number, sink: FeatureSink): { features: number; words: number } {
  const mask = buckets - 1;
  let features = 0;
  let words = 0;
  let previousWordHash = 0;
  for (const match of featureText(text).matchAll(TOKEN)) {
    const token = match[0];
    const code = token.charCodeAt(0);
    const isWord = (code >= 97 && code <= 122) || (code >= 48 && code <= 57);
    if (!isWord) {
      previousWordHash = 0;
      if (token === '.' || token === ';' || token === ':' || token === '\n' || token === '\r') continue;
      sink(mix(hashString(SEED_SYMBOL, token === '\u0001' ? 'link' : token)) & mask);
      features += 1;
      continue;
    }
    words += 1;
    const wordHash = hashString(SEED_WORD, token);
    sink(mix(wordHash) & mask);
    features += 1;
    if (previousWordHash !== 0) {
      sink(mix(hashString(step(SEED_BIGRAM, previousWordHash), token)) & mask);
      features += 1;
    }
    previousWordHash = wordHash;
    if (code >= 97) features += emitCharNgrams(token, mask, sink);
  }
  return { features, words };
}

function lengthBand(words: number): string {
  if (words <= 3) return 'len:1-3';
  if (words <= 12) return 'len:4-12';
  return words <= 40 ? 'len:13-40' : 'len:41+';
}

/** Buckets of the meta features: hint, rating and length band. */
export function metaFeatures(meta: MetaInput, words: number, buckets: number): number[] {
  const mask = buckets - 1;
  const names = [lengthBand(words)];
  if (meta.categoryHint !== null) names.push(`hint:${meta.categoryHint}`);
  if (meta.rating !== null) names.push(`rating:${meta.rating}`);
  return names.map((name) => mix(hashString(SEED_META, name)) & mask);
}

// The lexicon reads the opening of a message; the intent of feedback is almost always there.
const LEXICON_WINDOW = 400;

/** The hand-written lexicon's per-class evidence as dense features (log-scaled), plus sarcasm. */
export function lexiconFeatures(text: string, buckets: number): [number, number][] {
  const mask = buckets - 1;
  const window = text.length > LEXICON_WINDOW ? text.slice(0, LEXICON_WINDOW) : text;
  const { scores, sarcasm } = scoreText(canonicalize(window));
  addSurfaceCues(scores, window);
  const out: [number, number][] = [];
  for (const cls of SCORED_CLASSES) {
    if (scores[cls] > 0) out.push([mix(hashString(SEED_META, `lex:${cls}`)) & mask, Math.log1p(scores[cls])]);
  }
  if (sarcasm) out.push([mix(hashString(SEED_META, 'lex:sarcasm')) & mask, 1]);
  const promo = spamEvidence(window);
  if (promo > 0) out.push([mix(hashString(SEED_META, 'lex:spam')) & mask, Math.log1p(promo)]);
  return out;
}
