import { extractTextFeatures, lexiconFeatures, metaFeatures } from '../model/features';
import { type SerializedModel, addHint, softmax } from '../model/linear-model';
import { detectSpam } from '../spam';
import { augment, seededRandom, withWidgetMetadata } from './augment';
import type { LabelledExample } from './training-data';

/**
 * Multinomial logistic regression trained with AdaGrad on sparse hashed
 * features, in plain TypeScript: a few thousand short texts train in seconds,
 * so no numeric library is needed. Everything is seeded, so the same data
 * gives the same bytes (a test retrains and compares with the shipped file).
 *
 * Classes are weighted inversely to their frequency: the acceptance floors
 * are per class, and spam and "other" are the rarest in the data.
 */
interface TrainingOptions {
  readonly buckets: number;
  readonly epochs: number;
  readonly learningRate: number;
  readonly l2: number;
  readonly seed: number;
  /**
   * Share of n-gram features hidden from each training step. With all of them
   * the model can learn every example by its topic words and leave the intent
   * signals unused; hiding some makes it lean on the signals too.
   */
  readonly textDropout: number;
  /** Fixed log-odds of the category hint (see linear-model.ts); chosen by cross-validation. */
  readonly hintWeight: number;
}

export const DEFAULT_OPTIONS: TrainingOptions = {
  buckets: 1 << 15,
  epochs: 12,
  learningRate: 0.15,
  l2: 1e-5,
  seed: 20240613,
  textDropout: 0.6,
  hintWeight: 1,
};

interface SparseVector {
  readonly indices: Int32Array;
  readonly values: Float64Array;
  /** indices[0, text) are n-gram and symbol features; the rest are meta, lexicon and intent. */
  readonly text: number;
}

interface RawModel {
  readonly bias: Float64Array;
  readonly weights: Float64Array;
}

/** The model's input; the category hint is not in it (it is added to the logits, see linear-model.ts). */
function vectorize(example: Pick<LabelledExample, 'text' | 'categoryHint' | 'rating'>, buckets: number): SparseVector {
  const counts = new Map<number, number>();
  const { features, words } = extractTextFeatures(example.text, buckets, (bucket) => counts.set(bucket, (counts.get(bucket) ?? 0) + 1));
  const scale = features > 0 ? 1 / Math.sqrt(features) : 0;
  for (const [bucket, count] of counts) counts.set(bucket, count * scale);
  const text = counts.size;
  for (const bucket of metaFeatures(example, words, buckets)) counts.set(bucket, (counts.get(bucket) ?? 0) + 1);
  for (const [bucket, value] of lexiconFeatures(example.text, buckets)) counts.set(bucket, (counts.get(bucket) ?? 0) + value);
  const indices = Int32Array.from(counts.keys());
  const values = Float64Array.from(counts.values());
  return { indices, values, text };
}

function logitsOf(model: RawModel, vector: SparseVector, width: number): Float64Array {
  const logits = Float64Array.from(model.bias);
  for (let k = 0; k < vector.indices.length; k += 1) {
    const offset = vector.indices[k] * width;
    const value = vector.values[k];
    for (let c = 0; c < width; c += 1) logits[c] += model.weights[offset + c] * value;
  }
  return logits;
}

function classWeights(labels: readonly number[], width: number): Float64Array {
  const counts = new Float64Array(width);
  for (const label of labels) counts[label] += 1;
  return counts.map((count) => (count === 0 ? 0 : labels.length / (width * count)));
}

function shuffled(length: number, random: () => number): number[] {
  const order = Array.from({ length }, (_, i) => i);
  for (let i = length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

/**
 * The model only ever sees what the spam rules let through, so it learns that
 * residual: junk the rules catch (mashing, link stuffing) would otherwise teach
 * it that any short unfamiliar text is spam.
 */
function fit(all: readonly LabelledExample[], classes: readonly string[], options: TrainingOptions): RawModel {
  const examples = all.filter((example) => !detectSpam(example.text).isSpam);
  const width = classes.length;
  const vectors = examples.map((example) => vectorize(example, options.buckets));
  const labels = examples.map((example) => classes.indexOf(example.label));
  const weightOf = classWeights(labels, width);
  const model: RawModel = { bias: new Float64Array(width), weights: new Float64Array(options.buckets * width) };
  const squaredBias = new Float64Array(width);
  const squared = new Float64Array(options.buckets * width);
  const random = seededRandom(options.seed);
  const { learningRate, l2 } = options;
  const delta = new Float64Array(width);
  const { textDropout } = options;
  for (let epoch = 0; epoch < options.epochs; epoch += 1) {
    for (const i of shuffled(vectors.length, random)) {
      const vector = textDropout > 0 ? dropText(vectors[i], textDropout, random) : vectors[i];
      const probabilities = softmax(logitsOf(model, vector, width));
      for (let c = 0; c < width; c += 1) delta[c] = (probabilities[c] - (c === labels[i] ? 1 : 0)) * weightOf[labels[i]];
      for (let c = 0; c < width; c += 1) {
        squaredBias[c] += delta[c] * delta[c];
        model.bias[c] -= (learningRate * delta[c]) / (Math.sqrt(squaredBias[c]) + 1e-8);
      }
      for (let k = 0; k < vector.indices.length; k += 1) {
        const offset = vector.indices[k] * width;
        const value = vector.values[k];
        for (let c = 0; c < width; c += 1) {
          const at = offset + c;
          const gradient = delta[c] * value + l2 * model.weights[at];
          squared[at] += gradient * gradient;
          model.weights[at] -= (learningRate * gradient) / (Math.sqrt(squared[at]) + 1e-8);
        }
      }
    }
  }
  return model;
}

/** The vector with each text feature kept with probability 1 - rate (inverted dropout). */
function dropText(vector: SparseVector, rate: number, random: () => number): SparseVector {
  const indices: number[] = [];
  const values: number[] = [];
  let text = 0;
  for (let k = 0; k < vector.indices.length; k += 1) {
    if (k < vector.text && random() < rate) continue;
    if (k < vector.text) text += 1;
    indices.push(vector.indices[k]);
    values.push(k < vector.text ? vector.values[k] / (1 - rate) : vector.values[k]);
  }
  return { indices: Int32Array.from(indices), values: Float64Array.from(values), text };
}

/** Stratified folds: within each label, examples are dealt round-robin after a seeded shuffle. */
function foldOf(examples: readonly LabelledExample[], folds: number, seed: number): number[] {
  const assignment = new Array<number>(examples.length).fill(0);
  const random = seededRandom(seed);
  const byLabel = new Map<string, number[]>();
  examples.forEach((example, i) => byLabel.set(example.label, [...(byLabel.get(example.label) ?? []), i]));
  for (const label of [...byLabel.keys()].sort()) {
    const members = byLabel.get(label) ?? [];
    shuffled(members.length, random).forEach((position, rank) => {
      assignment[members[position]] = rank % folds;
    });
  }
  return assignment;
}

export interface HeldOutPrediction {
  readonly example: LabelledExample;
  readonly logits: Float64Array;
}

/** k-fold cross-validation: augmentation and training see only the other folds. */
export function crossValidate(
  examples: readonly LabelledExample[],
  classes: readonly string[],
  options: TrainingOptions,
  folds = 5,
): HeldOutPrediction[] {
  const assignment = foldOf(examples, folds, options.seed);
  const predictions: HeldOutPrediction[] = [];
  for (let fold = 0; fold < folds; fold += 1) {
    const training = augment(examples.filter((_, i) => assignment[i] !== fold));
    const model = quantizedRaw(fit(training, classes, options), classes.length);
    examples.forEach((example, i) => {
      if (assignment[i] !== fold) return;
      const asReceived = withWidgetMetadata(example);
      const logits = logitsOf(model, vectorize(asReceived, options.buckets), classes.length);
      addHint(logits, classes, asReceived.categoryHint, options.hintWeight);
      predictions.push({ example: asReceived, logits });
    });
  }
  return predictions;
}

/** The temperature that minimizes the log loss of held-out predictions (grid search, deterministic). */
export function fitTemperature(predictions: readonly HeldOutPrediction[], classes: readonly string[]): number {
  let best = 1;
  let bestLoss = Infinity;
  for (let t = 0.3; t <= 4.0001; t += 0.05) {
    let loss = 0;
    for (const { example, logits } of predictions) {
      loss -= Math.log(Math.max(1e-12, softmax(logits, t)[classes.indexOf(example.label)]));
    }
    if (loss < bestLoss) {
      bestLoss = loss;
      best = Math.round(t * 100) / 100;
    }
  }
  return best;
}

interface Quantized {
  readonly bytes: Buffer;
  readonly scales: number[];
}

function quantize(weights: Float64Array, width: number): Quantized {
  const scales = Array.from({ length: width }, (_, c) => {
    let max = 0;
    for (let at = c; at < weights.length; at += width) max = Math.max(max, Math.abs(weights[at]));
    // Rounded so that the shipped file and a fresh run agree to the last digit.
    return max === 0 ? 1 : Number((max / 127).toPrecision(8));
  });
  const bytes = Buffer.alloc(weights.length);
  for (let at = 0; at < weights.length; at += 1) {
    const value = Math.max(-127, Math.min(127, Math.round(weights[at] / scales[at % width])));
    bytes[at] = value < 0 ? value + 256 : value;
  }
  return { bytes, scales };
}

/** The model as the run time will see it (int8 weights), so CV measures what ships. */
function quantizedRaw(model: RawModel, width: number): RawModel {
  const { bytes, scales } = quantize(model.weights, width);
  const weights = new Float64Array(bytes.length);
  for (let at = 0; at < bytes.length; at += 1) weights[at] = (bytes[at] > 127 ? bytes[at] - 256 : bytes[at]) * scales[at % width];
  return { bias: model.bias, weights };
}

/** Trains on every example (augmented) and packs the result for the run time. */
export function trainModel(
  examples: readonly LabelledExample[],
  classes: readonly string[],
  options: TrainingOptions,
  temperature: number,
): SerializedModel {
  const model = fit(augment(examples), classes, options);
  const { bytes, scales } = quantize(model.weights, classes.length);
  return {
    version: 1,
    classes: [...classes],
    buckets: options.buckets,
    temperature,
    hintWeight: options.hintWeight,
    bias: Array.from(model.bias, (value) => Number(value.toPrecision(8))),
    scales,
    weights: bytes.toString('base64'),
  };
}
