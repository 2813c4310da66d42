import * as fs from 'fs';
import * as path from 'path';
import {
  CATEGORY_HINTS,
  type CategoryHint,
  FEEDBACK_CLASSIFICATIONS,
  type FeedbackClassification,
  classifyFeedback,
} from './classify-feedback';

interface EvaluationExample {
  text: string;
  category_hint: CategoryHint | null;
  rating: number | null;
  label: FeedbackClassification;
}

interface ClassReport {
  label: FeedbackClassification;
  support: number;
  correct: number;
  predicted: number;
}

const MIN_OVERALL_ACCURACY = 0.85;
const FIXTURE = path.join(__dirname, '../../../test/fixtures/feedback-evaluation.json');

function loadExamples(): EvaluationExample[] {
  return JSON.parse(fs.readFileSync(FIXTURE, 'utf8')) as EvaluationExample[];
}

function evaluate(examples: readonly EvaluationExample[]): { reports: ClassReport[]; misses: string[] } {
  const reports = FEEDBACK_CLASSIFICATIONS.map((label) => ({ label, support: 0, correct: 0, predicted: 0 }));
  const byLabel = new Map(reports.map((report) => [report.label, report]));
  const misses: string[] = [];
  for (const example of examples) {
    const { classification } = classifyFeedback({
      text: example.text,
      categoryHint: example.category_hint,
      rating: example.rating,
    });
    const expected = byLabel.get(example.label);
    const predicted = byLabel.get(classification);
    if (expected === undefined || predicted === undefined) throw new Error(`Unknown label ${example.label}`);
    expected.support += 1;
    predicted.predicted += 1;
    if (classification === example.label) expected.correct += 1;
    else misses.push(`  expected ${example.label}, got ${classification}: ${example.text.slice(0, 90)}`);
  }
  return { reports, misses };
}

const ratio = (numerator: number, denominator: number): string => (denominator === 0 ? '   -' : (numerator / denominator).toFixed(2));

function formatTable(reports: readonly ClassReport[], accuracy: number, total: number): string {
  const header = 'class            n   precision  recall(acc)  f1';
  const rows = reports.map(({ label, support, correct, predicted }) => {
    const precision = predicted === 0 ? 0 : correct / predicted;
    const recall = support === 0 ? 0 : correct / support;
    const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
    return `${label.padEnd(15)} ${String(support).padStart(3)}   ${ratio(correct, predicted).padStart(9)}  ${ratio(correct, support).padStart(11)}  ${f1.toFixed(2)}`;
  });
  return [header, ...rows, `overall accuracy: ${accuracy.toFixed(3)} on ${total} examples`].join('\n');
}

describe('feedback classifier evaluation set', () => {
  const examples = loadExamples();

  it('is a well-formed, balanced labelled set', () => {
    expect(examples.length).toBeGreaterThanOrEqual(220);
    for (const example of examples) {
      expect(example.text.length).toBeGreaterThanOrEqual(10);
      expect(example.text.length).toBeLessThanOrEqual(2000);
      expect(FEEDBACK_CLASSIFICATIONS).toContain(example.label);
      if (example.category_hint !== null) expect(CATEGORY_HINTS).toContain(example.category_hint);
      if (example.rating !== null) expect([1, 2, 3, 4, 5]).toContain(example.rating);
    }
    for (const label of FEEDBACK_CLASSIFICATIONS) {
      const count = examples.filter((example) => example.label === label).length;
      expect(count).toBeGreaterThanOrEqual(label === 'other' ? 20 : 25);
    }
  });

  it(`reaches at least ${MIN_OVERALL_ACCURACY} overall accuracy`, () => {
    const { reports, misses } = evaluate(examples);
    const correct = reports.reduce((sum, report) => sum + report.correct, 0);
    const accuracy = correct / examples.length;
    console.log(`${formatTable(reports, accuracy, examples.length)}\nmisclassified (${misses.length}):\n${misses.join('\n')}`);
    expect(accuracy).toBeGreaterThanOrEqual(MIN_OVERALL_ACCURACY);
  });
});
