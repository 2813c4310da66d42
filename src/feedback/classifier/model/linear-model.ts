import { type MetaInput, extractTextFeatures, lexiconFeatures, metaFeatures } from './features';

/**
 * A multinomial logistic regression over hashed features (see features.ts).
 * The weights are trained offline by `npm run train:classifier` and shipped
 * as a generated module; here they are only read.
 *
 * logit(class) = bias + Σ text weights / √(text feature count) + Σ meta weights
 *                + hintWeight if class is the category hint
 * p = softmax(logit / temperature)
 *
 * Dividing by the square root of the feature count keeps a 5,000-character
 * message from shouting louder than a one-liner; the temperature is fitted on
 * held-out predictions so that a 0.8 means right about eight times in ten.
 *
 * The category hint is one fixed log-odds bonus, not a learned weight: it
 * multiplies the odds of the class the user picked by e^hintWeight and no
 * more, so it settles a close call but cannot overturn a text the model reads
 * clearly as something else. Learned, it had grown as large as the strongest
 * words, because in the data a hint is right most of the time.
 */
export interface SerializedModel {
  readonly version: number;
  readonly classes: readonly string[];
  readonly buckets: number;
  readonly temperature: number;
  /** Log-odds added to the class named by the category hint. */
  readonly hintWeight: number;
  readonly bias: readonly number[];
  /** Per class: the weight of quantized value 1 (int8 weights times scale). */
  readonly scales: readonly number[];
  /** base64 of buckets × classes int8 weights, bucket-major. */
  readonly weights: string;
}

interface Prediction {
  /** Probabilities in the order of `classes`. */
  readonly probabilities: Float64Array;
  readonly words: number;
}

export class LinearModel {
  readonly classes: readonly string[];
  private readonly buckets: number;
  private readonly bias: Float64Array;
  /** The quantized weights as shipped, bucket-major. */
  private readonly weights: Int8Array;
  /**
   * Per class, the weight that quantized value 1 stands for. A long message reads
   * thousands of scattered buckets: the text features' bytes are summed as
   * integers (exact, one load each, one byte a weight keeps the table in the
   * processor's cache) and scaled once per class at the end.
   */
  private readonly scales: Float64Array;
  private readonly temperature: number;
  private readonly hintWeight: number;
  /** Buckets of the message being read, reused between calls. */
  private seen = new Int32Array(4096);
  /** Per-class integer sums of the text features' quantized weights, reused between calls. */
  private readonly sums: Int32Array;

  constructor(model: SerializedModel) {
    this.classes = model.classes;
    this.buckets = model.buckets;
    this.temperature = model.temperature;
    this.hintWeight = model.hintWeight;
    this.bias = Float64Array.from(model.bias);
    const raw = Buffer.from(model.weights, 'base64');
    const width = model.classes.length;
    if (raw.length !== model.buckets * width) throw new Error('Classifier weights do not match their declared shape');
    // Stored as two's complement bytes.
    this.weights = new Int8Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.length));
    this.scales = Float64Array.from(model.scales);
    this.sums = new Int32Array(width);
  }

  /**
   * Raw logits (before temperature), for training diagnostics and for predict().
   * `folded` is foldText(text) when the caller has it already.
   */
  logits(text: string, meta: MetaInput, folded?: string): { logits: Float64Array; words: number } {
    const width = this.classes.length;
    const { weights, scales, sums } = this;
    let seen = this.seen;
    let count = 0;
    const { features, words } = extractTextFeatures(
      text,
      this.buckets,
      (bucket) => {
        if (count === seen.length) {
          const grown = new Int32Array(seen.length * 2);
          grown.set(seen);
          seen = this.seen = grown;
        }
        seen[count++] = bucket;
      },
      folded,
    );
    // Summed after the scan, in one tight loop: a 5,000-character text has some 14,000 features.
    sums.fill(0);
    for (let k = 0; k < count; k += 1) {
      const offset = seen[k] * width;
      for (let c = 0; c < width; c += 1) sums[c] += weights[offset + c];
    }
    const logits = Float64Array.from(this.bias);
    const norm = features > 0 ? 1 / Math.sqrt(features) : 0;
    for (let c = 0; c < width; c += 1) logits[c] += sums[c] * scales[c] * norm;
    for (const bucket of metaFeatures(meta, words, this.buckets)) {
      const offset = bucket * width;
      for (let c = 0; c < width; c += 1) logits[c] += weights[offset + c] * scales[c];
    }
    for (const [bucket, value] of lexiconFeatures(text, this.buckets)) {
      const offset = bucket * width;
      for (let c = 0; c < width; c += 1) logits[c] += weights[offset + c] * scales[c] * value;
    }
    addHint(logits, this.classes, meta.categoryHint, this.hintWeight);
    return { logits, words };
  }

  predict(text: string, meta: MetaInput, folded?: string): Prediction {
    const { logits, words } = this.logits(text, meta, folded);
    return { probabilities: softmax(logits, this.temperature), words };
  }
}

/** Adds the hint's fixed log-odds to its class (a hint naming no class is ignored). */
export function addHint(logits: Float64Array, classes: readonly string[], hint: string | null, weight: number): void {
  if (hint === null) return;
  const index = classes.indexOf(hint);
  if (index >= 0) logits[index] += weight;
}

export function softmax(logits: ArrayLike<number>, temperature = 1): Float64Array {
  let max = -Infinity;
  for (let i = 0; i < logits.length; i += 1) max = Math.max(max, logits[i]);
  const out = new Float64Array(logits.length);
  let sum = 0;
  for (let i = 0; i < logits.length; i += 1) {
    out[i] = Math.exp((logits[i] - max) / temperature);
    sum += out[i];
  }
  for (let i = 0; i < out.length; i += 1) out[i] /= sum;
  return out;
}
