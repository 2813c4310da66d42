/**
 * Deterministic feedback classifier (no model, no network, no dependencies).
 *
 * How it works: spam is screened first from the raw text (keyboard mashing,
 * held-down keys, bare links, link stuffing, promo vocabulary) and, when
 * found, wins over everything including the category hint. Otherwise the
 * text is canonicalized (lowercased, accents stripped, doubled letters
 * collapsed, contractions glued: "doesn't" -> "doesnt") and matched against
 * a weighted, multilingual (en/es/fr/de/pt) lexicon of words and short
 * phrases per class; prefix patterns stand in for stemming and collapsed
 * letters absorb many typos ("crashs", "eror", "sooo goood").
 *
 * The raw scores are then adjusted: compliments preceded by a negator are
 * ignored, problem nouns preceded by one ("no crashes") too; clauses after
 * "but" weigh more in short texts; praise is damped when an actionable class
 * (bug, billing, feature request, support) has real evidence, and nearly
 * erased when sarcasm markers co-occur with a complaint. The category hint
 * adds a fixed prior that decides ambiguous texts but loses to clear
 * evidence for another class; the rating is a weaker prior. "other" has a
 * small base score so that text without signal falls back to it. A softmax
 * over the final scores gives the confidence.
 *
 * Limits: it is a bag of phrases, not a language model. It misses intents
 * phrased without any lexicon cue, sarcasm without markers, languages other
 * than the five above, and it can be fooled by quoted text or long messages
 * that discuss several topics. Confidence is a relative score, not a
 * calibrated probability. Lexicon changes should be checked against the
 * evaluation set (test/fixtures/feedback-evaluation.json).
 */
import { SCORED_CLASSES, type ScoredClass } from './lexicon';
import { canonicalize } from './normalize';
import { type ClassScores, addSurfaceCues, scoreText } from './scoring';
import { detectSpam } from './spam';
import { summarize } from './summarize';

export const FEEDBACK_CLASSIFICATIONS = ['bug', 'feature_request', 'praise', 'billing', 'support', 'other', 'spam'] as const;
export type FeedbackClassification = (typeof FEEDBACK_CLASSIFICATIONS)[number];

export const CATEGORY_HINTS = ['bug', 'feature_request', 'praise', 'billing', 'support'] as const;
export type CategoryHint = (typeof CATEGORY_HINTS)[number];

export interface FeedbackClassificationResult {
  classification: FeedbackClassification;
  /** 0..1, two decimals. */
  confidence: number;
  /** One short sentence, at most 140 characters. */
  summary: string;
}

export interface FeedbackClassificationInput {
  text: string;
  categoryHint?: CategoryHint | null;
  rating?: number | null;
}

const OTHER_BASE_SCORE = 1;
const HINT_PRIOR = 1.6;
// Below this, an actionable class is noise and should not mute praise.
const ACTIONABLE_EVIDENCE = 1.5;
const MIXED_INTENT_PRAISE_FACTOR = 0.55;
const SARCASM_PRAISE_FACTOR = 0.15;
const SOFTMAX_TEMPERATURE = 1;
const BILLING_TOPIC_EVIDENCE = 2.5;
const BILLING_ABSORBS_SUPPORT_FACTOR = 0.5;

const ACTIONABLE: readonly ScoredClass[] = ['bug', 'billing', 'feature_request', 'support'];

/**
 * Cross-class rules on lexical evidence, applied before priors:
 * - a how-to question about money ("where do I find my invoices?") belongs
 *   to billing, so clear billing vocabulary takes over question phrasing;
 * - sarcasm next to a complaint means the compliments are not meant;
 * - with a real actionable intent, compliments are usually just framing
 *   ("love it, but I was charged twice"), so praise is damped.
 */
function applyCrossClassRules(scores: ClassScores, sarcasm: boolean, rating: number | null): void {
  if (scores.billing >= BILLING_TOPIC_EVIDENCE) scores.support *= BILLING_ABSORBS_SUPPORT_FACTOR;
  const complaint = Math.max(scores.bug, scores.billing);
  if (sarcasm && (complaint >= ACTIONABLE_EVIDENCE || (rating !== null && rating <= 2))) {
    scores.praise *= SARCASM_PRAISE_FACTOR;
  }
  const actionable = Math.max(...ACTIONABLE.map((cls) => scores[cls]));
  if (actionable >= ACTIONABLE_EVIDENCE) scores.praise *= MIXED_INTENT_PRAISE_FACTOR;
}

/** Ratings are a weak prior: happy users praise, unhappy ones report problems. */
function applyRatingPrior(scores: ClassScores, rating: number | null): void {
  if (rating === null) return;
  if (rating >= 5) scores.praise += 0.8;
  else if (rating >= 4) scores.praise += 0.4;
  else if (rating >= 3) scores.other += 0.4;
  else {
    // Subtractive, so an explicit "love it" still beats a misclicked 1 star.
    scores.praise = Math.max(0, scores.praise - (rating >= 2 ? 0.4 : 0.6));
    scores.bug += rating >= 2 ? 0.3 : 0.5;
  }
}

function normalizeRating(rating: number | null | undefined): number | null {
  if (typeof rating !== 'number' || !Number.isFinite(rating)) return null;
  return Math.min(5, Math.max(1, Math.round(rating)));
}

function isCategoryHint(value: unknown): value is CategoryHint {
  return typeof value === 'string' && (CATEGORY_HINTS as readonly string[]).includes(value);
}

function pickWinner(scores: ClassScores): { winner: ScoredClass; confidence: number } {
  let winner: ScoredClass = SCORED_CLASSES[0];
  for (const cls of SCORED_CLASSES) {
    if (scores[cls] > scores[winner]) winner = cls;
  }
  const top = scores[winner];
  let denominator = 0;
  for (const cls of SCORED_CLASSES) {
    denominator += Math.exp((scores[cls] - top) / SOFTMAX_TEMPERATURE);
  }
  return { winner, confidence: roundConfidence(1 / denominator) };
}

function roundConfidence(value: number): number {
  return Math.round(Math.min(1, Math.max(0, value)) * 100) / 100;
}

/** Per-class scores after lexicon, cross-class rules and priors (spam is screened separately). */
export function scoreFeedback(input: FeedbackClassificationInput): ClassScores {
  const rating = normalizeRating(input.rating);
  const { scores, sarcasm } = scoreText(canonicalize(input.text));
  addSurfaceCues(scores, input.text);
  applyCrossClassRules(scores, sarcasm, rating);
  applyRatingPrior(scores, rating);
  if (isCategoryHint(input.categoryHint)) scores[input.categoryHint] += HINT_PRIOR;
  scores.other += OTHER_BASE_SCORE;
  return scores;
}

/** Classifies one piece of feedback; same input always yields the same output. */
export function classifyFeedback(input: FeedbackClassificationInput): FeedbackClassificationResult {
  const text = typeof input.text === 'string' ? input.text : '';
  const summary = summarize(text);
  const spam = detectSpam(text);
  if (spam.isSpam) {
    return { classification: 'spam', confidence: roundConfidence(spam.strength), summary };
  }
  const { winner, confidence } = pickWinner(scoreFeedback({ ...input, text }));
  return { classification: winner, confidence, summary };
}
