import {
  CLASS_LEXICONS,
  CONTRAST_PATTERN,
  NEGATION_FILLERS,
  NEGATORS,
  SARCASM_PATTERNS,
  SCORED_CLASSES,
  type ScoredClass,
} from './lexicon';
import { PatternIndex, type PatternScan } from './pattern-index';
import type { CompiledEntry } from './patterns';

type ClassScores = Record<ScoredClass, number>;

interface TextSignals {
  readonly scores: ClassScores;
  readonly sarcasm: boolean;
}

// A negator scopes over the next content word only: in "no crashes, just
// works" the "no" belongs to "crashes", not to "just works".
const NEGATION_WINDOW = 1;
// Beyond this length "but" is just prose, not the pivot of a short remark.
const CONTRAST_MAX_TOKENS = 60;
const AFTER_CONTRAST = 1.3;
const BEFORE_CONTRAST = 0.9;

function emptyScores(): ClassScores {
  return { bug: 0, billing: 0, feature_request: 0, support: 0, praise: 0, other: 0 };
}

// Every pattern the scorer runs, so one pass over the words serves them all.
const INDEX = new PatternIndex([
  ...Object.values(CLASS_LEXICONS)
    .flat()
    .map((entry) => entry.pattern),
  ...SARCASM_PATTERNS,
  CONTRAST_PATTERN,
]);

/**
 * Looks back a few content words (same sentence only) for a negator. Walks
 * the words backwards from the match instead of splitting everything before
 * it: a long text has many matches and each split copied the whole prefix.
 */
function isNegated(canonical: string, offset: number): boolean {
  let end = offset;
  while (end > 0 && canonical.charCodeAt(end - 1) === 32) end -= 1;
  let seen = 0;
  while (end > 0) {
    const start = canonical.lastIndexOf(' ', end - 1) + 1;
    const token = canonical.slice(start, end);
    if (token === '.' || seen >= NEGATION_WINDOW) return false;
    if (NEGATORS.has(token)) return true;
    if (!NEGATION_FILLERS.has(token)) seen += 1;
    end = start - 1;
  }
  return false;
}

function lastContrastOffset(canonical: string, scan: PatternScan): number {
  let spaces = 0;
  for (let i = canonical.indexOf(' '); i >= 0 && spaces < CONTRAST_MAX_TOKENS; i = canonical.indexOf(' ', i + 1)) spaces += 1;
  // Words are single-space separated, so there is one more word than spaces.
  if (spaces + 1 > CONTRAST_MAX_TOKENS) return -1;
  const offsets = scan.offsets(CONTRAST_PATTERN);
  return offsets.length > 0 ? offsets[offsets.length - 1] : -1;
}

/**
 * An entry counts once (its best occurrence) so that long texts repeating
 * a word do not drown out shorter, more specific phrases.
 */
function entryContribution(entry: CompiledEntry, canonical: string, scan: PatternScan, contrastAt: number): number {
  const offsets = scan.offsets(entry.pattern);
  if (offsets.length === 0) return 0;
  if (entry.weight < 0) return entry.weight;
  let best = 0;
  for (const offset of offsets) {
    if (entry.negatable && isNegated(canonical, offset)) continue;
    const position = contrastAt < 0 ? 1 : offset > contrastAt ? AFTER_CONTRAST : BEFORE_CONTRAST;
    best = Math.max(best, entry.weight * position);
  }
  return best;
}

/** Raw lexical evidence per class, before priors and cross-class rules. */
export function scoreText(canonical: string): TextSignals {
  const scores = emptyScores();
  const scan = INDEX.scan(canonical);
  const contrastAt = lastContrastOffset(canonical, scan);
  for (const cls of SCORED_CLASSES) {
    let total = 0;
    for (const entry of CLASS_LEXICONS[cls]) {
      total += entryContribution(entry, canonical, scan, contrastAt);
    }
    scores[cls] = Math.max(0, total);
  }
  return { scores, sarcasm: SARCASM_PATTERNS.some((pattern) => scan.has(pattern)) };
}

const CURRENCY_AMOUNT = /[$€£]\s?\d|\d\s?(?:[$€£]|eur\b|usd\b|euros?\b|dollars?\b)/i;
const PRAISE_EMOJI = /[👏🙌🎉😍🥰❤💯🔥⭐🚀👍]/u;
// "Keyboard navigation, please!": a bare noun phrase ending in please is a request.
const TRAILING_PLEASE = /\b(?:please|pls|plz|por favor|s'il (?:vous|te) pla[iî]t|bitte)\W*$/iu;

/**
 * Cues that the canonical form erases: punctuation and symbols. They are
 * kept weak because each is ambiguous on its own.
 */
export function addSurfaceCues(scores: ClassScores, text: string): void {
  if (text.includes('?')) scores.support += 0.5;
  if (CURRENCY_AMOUNT.test(text)) scores.billing += 1.5;
  if (PRAISE_EMOJI.test(text)) scores.praise += 1;
  if (TRAILING_PLEASE.test(text)) scores.feature_request += 1;
}
