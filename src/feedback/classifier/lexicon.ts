import type { FeedbackClassification } from './classes';
import { BILLING_LEXICON } from './lexicon-billing';
import { BUG_LEXICON } from './lexicon-bug';
import { FEATURE_REQUEST_LEXICON } from './lexicon-feature-request';
import { OTHER_LEXICON } from './lexicon-other';
import { POLITENESS_LEXICON, PRAISE_LEXICON, SARCASM_PATTERNS as SARCASM_SOURCES } from './lexicon-praise';
import { SUPPORT_LEXICON } from './lexicon-support';
import { type CompiledEntry, type CompiledPattern, canonicalWordSet, compileEntries, compilePattern } from './patterns';

/** Classes decided by weighted scoring; spam is decided separately, up front. */
export type ScoredClass = Exclude<FeedbackClassification, 'spam'>;

/** Fixed order doubles as the tie-breaker: actionable classes win ties. */
export const SCORED_CLASSES: readonly ScoredClass[] = ['bug', 'billing', 'feature_request', 'support', 'praise', 'other'];

/** Compiled once at module load; every lookup afterwards is read-only. */
export const CLASS_LEXICONS: Readonly<Record<ScoredClass, readonly CompiledEntry[]>> = {
  bug: compileEntries(BUG_LEXICON),
  billing: compileEntries(BILLING_LEXICON),
  feature_request: compileEntries(FEATURE_REQUEST_LEXICON),
  support: compileEntries(SUPPORT_LEXICON),
  praise: compileEntries([...PRAISE_LEXICON, ...POLITENESS_LEXICON]),
  other: compileEntries(OTHER_LEXICON),
};

export const SARCASM_PATTERNS: readonly CompiledPattern[] = SARCASM_SOURCES.map(compilePattern);

/** Words that flip the meaning of a following compliment or problem noun. */
export const NEGATORS = canonicalWordSet([
  'not',
  'no',
  'never',
  'nothing',
  'without',
  'zero',
  'none',
  'neither',
  'nor',
  'hardly',
  'dont',
  'doesnt',
  'didnt',
  'isnt',
  'wasnt',
  'arent',
  'werent',
  'cant',
  'cannot',
  'couldnt',
  'wont',
  'wouldnt',
  'shouldnt',
  'havent',
  'hasnt',
  'hadnt',
  'aint',
  'sin',
  'nunca',
  'nada',
  'ni',
  'tampoco',
  'ne',
  'pas',
  'jamais',
  'sans',
  'rien',
  'aucun',
  'aucune',
  'nicht',
  'kein',
  'keine',
  'keinen',
  'keiner',
  'nie',
  'niemals',
  'ohne',
  'nao',
  'sem',
  'nenhum',
  'nenhuma',
  'n',
]);

/**
 * Skipped when looking for a negator: articles, auxiliaries, pronouns and
 * intensifiers sit between a negator and the word it negates ("not a very
 * big fan", "no me encanta") without ending its scope.
 */
export const NEGATION_FILLERS = canonicalWordSet([
  'a',
  'an',
  'the',
  'any',
  'single',
  'more',
  'real',
  'really',
  'very',
  'so',
  'too',
  'that',
  'this',
  'it',
  'at',
  'all',
  'had',
  'have',
  'been',
  'be',
  'is',
  'was',
  'quite',
  'super',
  'exactly',
  'particularly',
  'even',
  'always',
  'i',
  'me',
  'my',
  'un',
  'una',
  'le',
  'la',
  'les',
  'de',
  'des',
  'du',
  'lo',
  'se',
  'muy',
  'tan',
  'tres',
  'vraiment',
  'ein',
  'eine',
  'einen',
  'der',
  'die',
  'das',
  'sehr',
  'wirklich',
  'mich',
  'mir',
  'um',
  'uma',
  'muito',
  'tao',
  'realmente',
]);

/**
 * Contrast connectives. In short feedback the clause after "but" usually
 * carries the actionable point ("love it, but I was charged twice").
 */
export const CONTRAST_PATTERN = compilePattern(
  'but, however, though, although, except, pero, sin embargo, mais, cependant, aber, jedoch, mas, porem, only thing',
);
