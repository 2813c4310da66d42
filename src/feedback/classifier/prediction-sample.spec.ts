import * as fs from 'fs';
import * as path from 'path';
import { type CategoryHint, FEEDBACK_CLASSIFICATIONS, classifyFeedback } from './classify-feedback';
import { LinearModel } from './model/linear-model';
import { SHIPPED_MODEL } from './model/weights.generated';
import { loadTrainingExamples } from './training/training-data';

/**
 * Speed work on the classifier (precompiled lexicon index, fewer passes and
 * copies) must not move a single prediction. This spec replays a fixed sample
 * of training texts, plus longer texts stitched from them (the lexicon window,
 * contrast and negation rules only show on long input), and compares label,
 * confidence and the raw logits with what the classifier answered when the
 * sample was recorded.
 *
 * After a deliberate change of the model (new data, new features, retraining)
 * the sample is recorded again: RECORD_PREDICTION_SAMPLE=1 with this spec, then
 * `npx prettier --write` on the JSON file.
 */
interface SampleEntry {
  text: string;
  category_hint: CategoryHint | null;
  rating: number | null;
  classification: string;
  confidence: number;
  /** Before temperature, rounded to 6 decimals: catches drift too small to move a confidence. */
  logits: number[];
}

const SAMPLE_FILE = path.join(__dirname, 'prediction-sample.json');
const SAMPLE_SIZE = 200;
const LONG_LENGTHS = [450, 800, 1_500, 3_000, 5_000];
const LONG_PER_LENGTH = 5;
const model = new LinearModel(SHIPPED_MODEL);

function predict(text: string, categoryHint: CategoryHint | null, rating: number | null): SampleEntry {
  const result = classifyFeedback({ text, categoryHint, rating });
  const { logits } = model.logits(text, { categoryHint, rating });
  return {
    text,
    category_hint: categoryHint,
    rating,
    classification: result.classification,
    confidence: result.confidence,
    logits: Array.from(logits, (value) => Math.round(value * 1e6) / 1e6),
  };
}

/** Every k-th training example, then long texts made of consecutive non-spam ones. */
function buildSample(): SampleEntry[] {
  const examples = loadTrainingExamples(FEEDBACK_CLASSIFICATIONS);
  const stride = Math.floor(examples.length / SAMPLE_SIZE);
  const picked = Array.from({ length: SAMPLE_SIZE }, (_, i) => examples[i * stride]);
  const entries = picked.map((example) => predict(example.text, example.categoryHint as CategoryHint | null, example.rating));
  const prose = examples.filter((example) => example.label !== 'spam').map((example) => example.text);
  let next = 0;
  for (const length of LONG_LENGTHS) {
    for (let i = 0; i < LONG_PER_LENGTH; i += 1) {
      let text = '';
      while (text.length < length) text += `${prose[(next += 7) % prose.length]} `;
      entries.push(predict(text.slice(0, length).trim(), null, null));
    }
  }
  return entries;
}

describe('classifier predictions on a recorded sample', () => {
  if (process.env.RECORD_PREDICTION_SAMPLE === '1') {
    it('records the sample', () => {
      fs.writeFileSync(SAMPLE_FILE, `${JSON.stringify(buildSample())}\n`);
    });
    return;
  }

  const sample = JSON.parse(fs.readFileSync(SAMPLE_FILE, 'utf8')) as SampleEntry[];

  it('covers short and long texts and every class', () => {
    expect(sample.length).toBe(SAMPLE_SIZE + LONG_LENGTHS.length * LONG_PER_LENGTH);
    expect(new Set(sample.map((entry) => entry.classification))).toEqual(new Set(FEEDBACK_CLASSIFICATIONS));
    expect(Math.max(...sample.map((entry) => entry.text.length))).toBeGreaterThanOrEqual(5_000);
  });

  it('gives the recorded label, confidence and logits for every text', () => {
    const mismatches = sample
      .map((entry) => ({ expected: entry, actual: predict(entry.text, entry.category_hint, entry.rating) }))
      .filter(({ expected, actual }) => JSON.stringify(expected) !== JSON.stringify(actual));
    expect(mismatches).toEqual([]);
  });
});
