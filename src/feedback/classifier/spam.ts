import { PatternIndex } from './pattern-index';
import { compileEntries } from './patterns';
import { SPAM_LEXICON } from './lexicon-spam';
import { canonicalizeFolded, countUrls, foldText, replaceUrls } from './normalize';

/**
 * Spam is decided before intent scoring and overrides any category hint:
 * junk text tells us nothing about the user's intent, so no prior should
 * rescue it.
 */
export interface SpamVerdict {
  readonly isSpam: boolean;
  /** 0..1; structural junk (mashing, repeats, bare links) is near-certain. */
  readonly strength: number;
}

const SPAM_ENTRIES = compileEntries(SPAM_LEXICON);
const SPAM_INDEX = new PatternIndex(SPAM_ENTRIES.map((entry) => entry.pattern));
const LEXICAL_THRESHOLD = 4;

// Runs of adjacent keys on common layouts (QWERTY, QWERTZ, AZERTY).
const KEYBOARD_ROWS = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm', 'qwertzuiop', 'yxcvbnm', 'azertyuiop', 'qsdfghjklm', 'wxcvbn'];
const KEYBOARD_RUNS = buildKeyboardRuns(4);

function buildKeyboardRuns(length: number): ReadonlySet<string> {
  const runs = new Set<string>();
  for (const row of KEYBOARD_ROWS) {
    const reversed = [...row].reverse().join('');
    for (const line of [row, reversed]) {
      for (let i = 0; i + length <= line.length; i += 1) runs.add(line.slice(i, i + length));
    }
  }
  return runs;
}

function hasKeyboardRun(word: string): boolean {
  for (let i = 0; i + 4 <= word.length; i += 1) {
    if (KEYBOARD_RUNS.has(word.slice(i, i + 4))) return true;
  }
  return false;
}

/** A "word" nobody would type on purpose: keyboard runs, no vowels, stutters. */
// A laugh ("hahaha", "jajaja", "kkkkk", "rsrsrs", "mdrrr") is a reaction, not junk.
const LAUGH = /^(?:(?:ha|he|hi|ja|je|ji|ka|rs|xd|lol)+h?|k+|mdr+)$/;

function isMashedWord(word: string): boolean {
  if (word.length < 4 || (word.length <= 16 && LAUGH.test(word))) return false;
  if (/^(.)\1+$/.test(word) || /^(.{1,4})\1{2,}$/.test(word)) return true;
  if (word.length >= 5 && !/[aeiouy]/.test(word)) return true;
  return hasKeyboardRun(word);
}

function isKeyboardMashing(words: readonly string[]): boolean {
  const letters = words.reduce((sum, word) => sum + word.length, 0);
  if (letters === 0) return false;
  let mashed = 0;
  let unmashed = 0;
  for (const word of words) {
    if (isMashedWord(word)) mashed += word.length;
    else unmashed += word.length;
    // Real prose settles it within a few words; testing the rest of a long message cannot change the answer.
    if ((letters - unmashed) / letters < 0.6) return false;
  }
  return mashed / letters >= 0.6;
}

/** The same few tokens repeated over and over ("lol lol lol ..."). */
function isRepetitive(words: readonly string[]): boolean {
  if (words.length < 6) return false;
  const distinct = new Set<string>();
  for (const word of words) {
    distinct.add(word);
    // The count only grows: once past the bound, the rest of a long message cannot bring it back.
    if (distinct.size / words.length > 0.25) return false;
  }
  return true;
}

// One non-space character, repeated, with any spacing: the text without its spaces is `(.)\1+`.
const HELD_DOWN = /^\s*(\S)(?:\s*\1)+\s*$/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/**
 * Text that is only punctuation/symbols, or one character held down. Emoji
 * are exempt: "👍👍👍" is terse, but it is a genuine reaction.
 */
function isSymbolNoise(text: string): boolean {
  // Both tests fail within the first few characters of prose, before any copy of a long text is made.
  const heldDown = HELD_DOWN.test(text);
  if (!heldDown && LETTER_OR_DIGIT.test(text)) return false;
  const compact = text.replace(/\s+/g, '');
  if (compact.length < 5) return false;
  if (heldDown) return !LAUGH.test(compact.toLowerCase()) && !/\p{Extended_Pictographic}/u.test(compact);
  return !/\p{Extended_Pictographic}/u.test(compact);
}

function structuralJunk(text: string, folded: string, urlCount: number): boolean {
  const withoutUrls = replaceUrls(folded, ' ');
  const words = withoutUrls.match(/[a-z]+/g) ?? [];
  if (urlCount > 0 && words.join('').length < 5) return true;
  return isSymbolNoise(text) || isKeyboardMashing(words) || isRepetitive(words);
}

function urlScore(urlCount: number): number {
  if (urlCount >= 3) return 5;
  if (urlCount === 2) return 3;
  return urlCount === 1 ? 1 : 0;
}

function lexicalScore(text: string, canonical: string): number {
  let score = /\d+\s?%\s?off\b/i.test(text) ? 1.5 : 0;
  const scan = SPAM_INDEX.scan(canonical);
  for (const entry of SPAM_ENTRIES) {
    if (scan.has(entry.pattern)) score += entry.weight;
  }
  return score;
}

/**
 * Promo vocabulary and link count, also a feature of the model below the
 * rule's threshold. A caller that already has the folded and canonical forms
 * of `text` passes them, so that they are not computed again.
 */
export function spamEvidence(text: string, folded = foldText(text), canonical = canonicalizeFolded(folded)): number {
  return lexicalScore(text, canonical) + urlScore(countUrls(folded));
}

/**
 * Decides whether the text is junk; see SpamVerdict. Folded once for every rule
 * below (on a long message folding is a good part of the cost); a caller that
 * folded `text` already passes that form.
 */
export function detectSpam(text: string, folded = foldText(text)): SpamVerdict {
  const urls = countUrls(folded);
  if (structuralJunk(text, folded, urls)) return { isSpam: true, strength: 0.97 };
  const score = lexicalScore(text, canonicalizeFolded(folded)) + urlScore(urls);
  if (score < LEXICAL_THRESHOLD) return { isSpam: false, strength: 0 };
  return { isSpam: true, strength: Math.min(0.99, 0.5 + score * 0.05) };
}
