import { SCORED_CLASSES } from '../lexicon';
import { intentFeatures, readIntent } from '../intent';
import { canonicalizeFolded, collapseRepeatedLetters, foldText, replaceEmails, replaceUrls } from '../normalize';
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
 * Meta features (value 1, not scaled by length): rating and a length band,
 * because "broken" and a 40-line report are read differently. The category
 * hint is not a feature: it is a fixed, bounded weight (hint.ts), so that the
 * model cannot learn to follow it over the text.
 *
 * Dense features (not scaled by length either): the lexicon's per-class
 * scores and the intent signals (intent.ts), read on the opening.
 */
export interface MetaInput {
  readonly categoryHint: string | null;
  readonly rating: number | null;
}

type FeatureSink = (bucket: number) => void;

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
const LINK = 0x01;
const LINK_MARK = ' \u0001 ';
const PICTOGRAPHIC = /^\p{Extended_Pictographic}$/u;
const SPACE = 0x20;
// The word being cut into n-grams, with its padding spaces (reused: one word at a time).
const PADDED_WORD = new Uint16Array(MAX_WORD_FOR_NGRAMS + 2);

function step(hash: number, code: number): number {
  return Math.imul(hash ^ code, FNV_PRIME);
}

function hashString(seed: number, text: string): number {
  let hash = seed;
  for (let i = 0; i < text.length; i += 1) hash = step(hash, text.charCodeAt(i));
  return hash;
}

/** hashString over text[start, end) without cutting the substring out. */
function hashRange(seed: number, text: string, start: number, end: number): number {
  let hash = seed;
  for (let i = start; i < end; i += 1) hash = step(hash, text.charCodeAt(i));
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

/**
 * Folded text the features are read from; links and addresses become one marker.
 * A caller that already folded `text` (the spam rules do) passes that form.
 */
function featureText(text: string, folded = foldText(text)): string {
  return collapseRepeatedLetters(replaceUrls(replaceEmails(folded, LINK_MARK), LINK_MARK));
}

const LINK_HASH = hashString(SEED_SYMBOL, 'link');

function isWordChar(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 48 && code <= 57);
}

/** Punctuation that only ends a word run (no feature), as the tokenizer always treated it. */
function isBreak(code: number): boolean {
  return code === 0x2e || code === 0x3b || code === 0x3a || code === 0x0a || code === 0x0d;
}

/** ?, ! and the currency signs: each is a symbol feature of its own. */
function isSymbol(code: number): boolean {
  return code === 0x3f || code === 0x21 || code === 0x24 || code === 0x20ac || code === 0xa3 || code === 0xa5;
}

/**
 * Character n-grams of one word padded with a space on each side, as if read
 * from ` ${word} ` (cut to MAX_WORD_FOR_NGRAMS), without building that string.
 */
function emitCharNgrams(text: string, wordStart: number, wordEnd: number, mask: number, sink: FeatureSink): number {
  const length = Math.min(wordEnd - wordStart, MAX_WORD_FOR_NGRAMS) + 2;
  const padded = PADDED_WORD;
  padded[0] = SPACE;
  for (let k = 1; k < length - 1; k += 1) padded[k] = text.charCodeAt(wordStart + k - 1);
  padded[length - 1] = SPACE;
  let emitted = 0;
  for (let start = 0; start + MIN_NGRAM <= length; start += 1) {
    let hash = SEED_CHAR;
    const end = Math.min(length, start + MAX_NGRAM);
    for (let i = start; i < end; i += 1) {
      hash = step(hash, padded[i]);
      if (i - start + 1 >= MIN_NGRAM) {
        sink(mix(hash) & mask);
        emitted += 1;
      }
    }
  }
  return emitted;
}

/**
 * Length in UTF-16 units of the emoji-like token at `index` (one code point
 * of Extended_Pictographic), or 0. Only non-ASCII characters can be one.
 */
function pictographAt(text: string, index: number): number {
  const code = text.charCodeAt(index);
  if (code < 0x80) return 0;
  const width = code >= 0xd800 && code <= 0xdbff && index + 1 < text.length && isLowSurrogate(text.charCodeAt(index + 1)) ? 2 : 1;
  return PICTOGRAPHIC.test(text.slice(index, index + width)) ? width : 0;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * Calls `sink` with the bucket of every text feature occurrence (repeats
 * included) and returns how many there were, plus the number of words.
 *
 * Tokens, in the order they occur: word runs [a-z0-9]+, the symbols above,
 * single emoji, the link marker; sentence punctuation only breaks bigrams;
 * everything else is skipped. A hand-written scan instead of a tokenizing
 * regex: a 5,000-character message has about a thousand tokens, and hashing
 * them in place saves a match object and a substring for each.
 */
export function extractTextFeatures(
  text: string,
  buckets: number,
  sink: FeatureSink,
  foldedText?: string,
): { features: number; words: number } {
  const mask = buckets - 1;
  const folded = featureText(text, foldedText);
  let features = 0;
  let words = 0;
  let previousWordHash = 0;
  let i = 0;
  while (i < folded.length) {
    const code = folded.charCodeAt(i);
    if (isWordChar(code)) {
      let end = i + 1;
      while (end < folded.length && isWordChar(folded.charCodeAt(end))) end += 1;
      words += 1;
      const wordHash = hashRange(SEED_WORD, folded, i, end);
      sink(mix(wordHash) & mask);
      features += 1;
      if (previousWordHash !== 0) {
        sink(mix(hashRange(step(SEED_BIGRAM, previousWordHash), folded, i, end)) & mask);
        features += 1;
      }
      previousWordHash = wordHash;
      // Words opening with a digit (numbers, versions) get no n-grams.
      if (code >= 97) features += emitCharNgrams(folded, i, end, mask, sink);
      i = end;
      continue;
    }
    if (isBreak(code)) {
      previousWordHash = 0;
      i += 1;
      continue;
    }
    const width = isSymbol(code) || code === LINK ? 1 : pictographAt(folded, i);
    if (width === 0) {
      // Anything else (spaces, other punctuation) is not a token and leaves the bigram chain intact.
      i += 1;
      continue;
    }
    previousWordHash = 0;
    sink(mix(code === LINK ? LINK_HASH : hashRange(SEED_SYMBOL, folded, i, i + width)) & mask);
    features += 1;
    i += width;
  }
  return { features, words };
}

function lengthBand(words: number): string {
  if (words <= 3) return 'len:1-3';
  if (words <= 12) return 'len:4-12';
  return words <= 40 ? 'len:13-40' : 'len:41+';
}

/** Buckets of the meta features: rating and length band. */
export function metaFeatures(meta: MetaInput, words: number, buckets: number): number[] {
  const mask = buckets - 1;
  const names = [lengthBand(words)];
  if (meta.rating !== null) names.push(`rating:${meta.rating}`);
  return names.map((name) => mix(hashString(SEED_META, name)) & mask);
}

// The lexicon reads the opening of a message; the intent of feedback is almost always there.
const LEXICON_WINDOW = 400;
// Intent features enter at this scale: AdaGrad steps are per weight, so a larger
// value lets the few intent weights move the logits further than one n-gram can.
const INTENT_SCALE = 1;

/**
 * The hand-written lexicon's per-class evidence as dense features (log-scaled),
 * sarcasm, promo evidence and the intent signals.
 */
export function lexiconFeatures(text: string, buckets: number): [number, number][] {
  const mask = buckets - 1;
  const window = text.length > LEXICON_WINDOW ? text.slice(0, LEXICON_WINDOW) : text;
  const folded = foldText(window);
  const canonical = canonicalizeFolded(folded);
  const { scores, sarcasm } = scoreText(canonical);
  addSurfaceCues(scores, window);
  const out: [number, number][] = [];
  for (const cls of SCORED_CLASSES) {
    if (scores[cls] > 0) out.push([mix(hashString(SEED_META, `lex:${cls}`)) & mask, Math.log1p(scores[cls])]);
  }
  if (sarcasm) out.push([mix(hashString(SEED_META, 'lex:sarcasm')) & mask, 1]);
  const promo = spamEvidence(window, folded, canonical);
  if (promo > 0) out.push([mix(hashString(SEED_META, 'lex:spam')) & mask, Math.log1p(promo)]);
  for (const [name, value] of intentFeatures(readIntent(window, canonical), window.includes('?'))) {
    out.push([mix(hashString(SEED_META, name)) & mask, value * INTENT_SCALE]);
  }
  return out;
}
