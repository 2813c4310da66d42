import * as fs from 'fs';
import * as path from 'path';
import {
  CATEGORY_HINTS,
  type CategoryHint,
  FEEDBACK_CLASSIFICATIONS,
  type FeedbackClassification,
  classifyFeedback,
} from './classify-feedback';
import { SHIPPED_MODEL } from './model/weights.generated';
import { accuracy, classMetrics, formatReport, type Outcome } from './training/report';
import { DEFAULT_OPTIONS, trainModel } from './training/trainer';
import { loadTrainingExamples } from './training/training-data';

/**
 * Honest measurement on two locked sets, each written by someone else without
 * looking at the classifier and never read by training:
 * - test/fixtures/feedback-locked.json, close to the training data's style;
 * - test/fixtures/feedback-locked-2.json, written the way real feedback
 *   arrives (short, mixed languages, praise naming product areas, off-topic
 *   messages, sarcasm, misleading hints).
 * Only aggregate numbers are printed here, never the individual misses, so
 * neither can be tuned on by reading them. The older evaluation set is now
 * part of the training data; its accuracy is a fit, not a measure.
 */
interface LabelledFixture {
  text: string;
  category_hint: CategoryHint | null;
  rating: number | null;
  label: FeedbackClassification;
}

const MIN_LOCKED_ACCURACY = 0.88;
const MIN_CLASS_RECALL = 0.8;
const MIN_SPAM_PRECISION = 0.95;
const FIXTURES = path.join(__dirname, '../../../test/fixtures');

function load(name: string): LabelledFixture[] {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES, name), 'utf8')) as LabelledFixture[];
}

function outcomes(examples: readonly LabelledFixture[]): Outcome[] {
  return examples.map((example) => {
    const result = classifyFeedback({ text: example.text, categoryHint: example.category_hint, rating: example.rating });
    return { expected: example.label, predicted: result.classification, confidence: result.confidence };
  });
}

function expectWellFormed(examples: readonly LabelledFixture[]): void {
  for (const example of examples) {
    expect(example.text.length).toBeGreaterThanOrEqual(1);
    expect(FEEDBACK_CLASSIFICATIONS).toContain(example.label);
    if (example.category_hint !== null) expect(CATEGORY_HINTS).toContain(example.category_hint);
    if (example.rating !== null) expect([1, 2, 3, 4, 5]).toContain(example.rating);
  }
}

describe.each([
  ['locked set', 'feedback-locked.json', 500],
  ['second locked set', 'feedback-locked-2.json', 500],
])('feedback classifier on the %s', (title, file, minimumSize) => {
  const examples = load(file);
  const results = outcomes(examples);
  const metrics = classMetrics(results, FEEDBACK_CLASSIFICATIONS);

  it('is a well-formed set covering every class', () => {
    expect(examples.length).toBeGreaterThanOrEqual(minimumSize);
    expectWellFormed(examples);
    for (const label of FEEDBACK_CLASSIFICATIONS) expect(metrics.find((row) => row.label === label)?.support).toBeGreaterThanOrEqual(50);
  });

  it(`reaches at least ${MIN_LOCKED_ACCURACY} accuracy`, () => {
    console.log(formatReport(title, results, FEEDBACK_CLASSIFICATIONS));
    expect(accuracy(results)).toBeGreaterThanOrEqual(MIN_LOCKED_ACCURACY);
  });

  it(`keeps every class at ${MIN_CLASS_RECALL} recall or more`, () => {
    for (const row of metrics)
      expect({ label: row.label, recall: row.recall >= MIN_CLASS_RECALL }).toEqual({ label: row.label, recall: true });
  });

  it(`calls real feedback spam rarely (spam precision ${MIN_SPAM_PRECISION} or more)`, () => {
    expect(metrics.find((row) => row.label === 'spam')?.precision).toBeGreaterThanOrEqual(MIN_SPAM_PRECISION);
  });
});

describe('feedback classifier training data', () => {
  it('keeps the older evaluation set well-formed (it is training data now)', () => {
    const examples = load('feedback-evaluation.json');
    expect(examples.length).toBeGreaterThanOrEqual(220);
    expectWellFormed(examples);
    expect(accuracy(outcomes(examples))).toBeGreaterThanOrEqual(0.9);
  });

  it('ships the weights a fresh training run produces (they cannot go stale)', () => {
    const examples = loadTrainingExamples(FEEDBACK_CLASSIFICATIONS);
    expect(examples.length).toBeGreaterThanOrEqual(2000);
    const fresh = trainModel(examples, FEEDBACK_CLASSIFICATIONS, DEFAULT_OPTIONS, SHIPPED_MODEL.temperature);
    // Compared field by field so that a mismatch names the stale part, not a 300 kB string.
    expect({ ...fresh, weights: undefined }).toEqual({ ...SHIPPED_MODEL, weights: undefined });
    expect(fresh.weights === SHIPPED_MODEL.weights).toBe(true);
  });
});
