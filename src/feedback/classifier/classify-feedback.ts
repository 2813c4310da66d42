/**
 * Deterministic feedback classifier: rules for junk, a small linear model for
 * intent. No network, no download: the weights are a generated module.
 *
 * Why a model: the hand-written lexicon alone scored 96% on the examples it
 * was tuned on and 70-77% on fresh text; every new phrasing needed a new
 * rule. A multinomial logistic regression over word uni/bigrams and character
 * 3-5-grams (model/features.ts) generalizes from a few thousand labelled
 * examples (test/fixtures/feedback-training/) to typos, inflections and
 * phrasings it has not seen, in the five languages it was given. Naive Bayes
 * was the other candidate; logistic regression was kept because its
 * probabilities can be calibrated and it copes with correlated n-grams
 * (each 3-gram of "crash" is also in "crashes"), which naive Bayes counts
 * again and again and turns into overconfident scores.
 *
 * The rules still do what they are good at:
 * - spam screening (spam.ts) runs first on the raw text and wins outright:
 *   mashing, held-down keys, bare links and promo vocabulary are precise, and
 *   no hint or model score should rescue junk (see verdict.ts);
 * - the lexicon (lexicon*.ts, scoring.ts: weighted multilingual phrases with
 *   negation, "but" clauses and sarcasm markers) is not the decision any more
 *   but a set of strong-cue features of the model, read on the opening of the
 *   message, so its knowledge is kept and the model learns how far to trust it.
 * - intent signals (intent.ts) say what the writer does whatever area the
 *   message names: reports something broken, asks for something, asks how,
 *   is pleased. English valence is AFINN-165 through the `sentiment` package
 *   (MIT, CommonJS, no dependencies; why this one: intent.ts), the other four
 *   languages and the intent phrases are our own lists. Without them, topic
 *   words won: praise about an invoice read as billing, "so fast I thought it
 *   had failed" as a bug.
 * `rating` and a length band are features too. `category_hint` is not: it
 * adds a fixed 1.0 to its class's log-odds (model/linear-model.ts), because
 * learned, it had grown strong enough that a wrong hint won one time in four
 * or five; now it settles close calls only.
 *
 * `confidence` is the probability of the chosen class after temperature
 * scaling fitted on held-out predictions, so it means what it says: docs/feedback.md
 * reports accuracy per confidence band. Limits: a bag of n-grams, not a
 * language model. It can miss sarcasm without markers, intents in languages
 * other than the five, and long messages that discuss several topics.
 */
import { CATEGORY_HINTS, type CategoryHint, type FeedbackClassification } from './classes';
import { LinearModel } from './model/linear-model';
import { SHIPPED_MODEL } from './model/weights.generated';
import { foldText } from './normalize';
import { detectSpam } from './spam';
import { summarize } from './summarize';
import { decideVerdict } from './verdict';

export { CATEGORY_HINTS, FEEDBACK_CLASSIFICATIONS, type CategoryHint, type FeedbackClassification } from './classes';

interface FeedbackClassificationResult {
  classification: FeedbackClassification;
  /** 0..1, two decimals. */
  confidence: number;
  /** One short sentence, at most 140 characters. */
  summary: string;
}

interface FeedbackClassificationInput {
  text: string;
  categoryHint?: CategoryHint | null;
  rating?: number | null;
}

const MODEL = new LinearModel(SHIPPED_MODEL);

function normalizeRating(rating: number | null | undefined): number | null {
  if (typeof rating !== 'number' || !Number.isFinite(rating)) return null;
  return Math.min(5, Math.max(1, Math.round(rating)));
}

function isCategoryHint(value: unknown): value is CategoryHint {
  return typeof value === 'string' && (CATEGORY_HINTS as readonly string[]).includes(value);
}

function roundConfidence(value: number): number {
  return Math.round(Math.min(1, Math.max(0, value)) * 100) / 100;
}

/** Classifies one piece of feedback; same input always yields the same output. */
export function classifyFeedback(input: FeedbackClassificationInput): FeedbackClassificationResult {
  const text = typeof input.text === 'string' ? input.text : '';
  const summary = summarize(text);
  const meta = { categoryHint: isCategoryHint(input.categoryHint) ? input.categoryHint : null, rating: normalizeRating(input.rating) };
  // Folded once for the spam rules and the model's features alike.
  const folded = foldText(text);
  const spam = detectSpam(text, folded);
  // Junk never reaches the model: the rules' verdict is final (verdict.ts).
  const probabilities = spam.isSpam ? [] : MODEL.predict(text, meta, folded).probabilities;
  const verdict = decideVerdict(spam, MODEL.classes, probabilities);
  return { classification: verdict.label as FeedbackClassification, confidence: roundConfidence(verdict.confidence), summary };
}
