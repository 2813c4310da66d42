import { type MetaInput, extractTextFeatures, lexiconFeatures, metaFeatures } from './features';

/**
 * A multinomial logistic regression over hashed features (see features.ts).
 * The weights are trained offline by `npm run train:classifier` and shipped
 * as a generated module; here they are only read.
 *
 * logit(class) = bias + Σ text weights / √(text feature count) + Σ meta weights
 * p = softmax(logit / temperature)
 *
 * Dividing by the square root of the feature count keeps a 5,000-character
 * message from shouting louder than a one-liner; the temperature is fitted on
 * held-out predictions so that a 0.8 means right about eight times in ten.
 */
export interface SerializedModel {
  readonly version: number;
  readonly classes: readonly string[];
  readonly buckets: number;
  readonly temperature: number;
  readonly bias: readonly number[];
  /** Per class: the weight of quantized value 1 (int8 weights times scale). */
  readonly scales: readonly number[];
  /** base64 of buckets × classes int8 weights, bucket-major. */
  readonly weights: string;
}

export interface Prediction {
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
   * The weight each quantized value stands for, per class: values[c * 256 + q + 128].
   * A long message reads thousands of scattered buckets; one byte a weight
   * keeps the table in the processor's cache where floats would not fit.
   */
  private readonly values: Float64Array;
  private readonly temperature: number;
  /** Buckets of the message being read, reused between calls. */
  private seen = new Int32Array(4096);

  constructor(model: SerializedModel) {
    this.classes = model.classes;
    this.buckets = model.buckets;
    this.temperature = model.temperature;
    this.bias = Float64Array.from(model.bias);
    const raw = Buffer.from(model.weights, 'base64');
    const width = model.classes.length;
    if (raw.length !== model.buckets * width) throw new Error('Classifier weights do not match their declared shape');
    // Stored as two's complement bytes.
    this.weights = Int8Array.from(raw, (byte) => (byte > 127 ? byte - 256 : byte));
    this.values = new Float64Array(width * 256);
    for (let c = 0; c < width; c += 1) {
      // Single precision, as the weights were always held: the sums stay bit for bit the same.
      for (let q = -128; q < 128; q += 1) this.values[c * 256 + q + 128] = Math.fround(q * model.scales[c]);
    }
  }

  /** Raw logits (before temperature), for training diagnostics and for predict(). */
  logits(text: string, meta: MetaInput): { logits: Float64Array; words: number } {
    const width = this.classes.length;
    const textSum = new Float64Array(width);
    const { weights, values } = this;
    let seen = this.seen;
    let count = 0;
    const { features, words } = extractTextFeatures(text, this.buckets, (bucket) => {
      if (count === seen.length) {
        const grown = new Int32Array(seen.length * 2);
        grown.set(seen);
        seen = this.seen = grown;
      }
      seen[count++] = bucket;
    });
    // Summed after the scan, in the order the features came, in one tight loop.
    for (let k = 0; k < count; k += 1) {
      const offset = seen[k] * width;
      for (let c = 0; c < width; c += 1) textSum[c] += values[c * 256 + weights[offset + c] + 128];
    }
    const logits = Float64Array.from(this.bias);
    const scale = features > 0 ? 1 / Math.sqrt(features) : 0;
    for (let c = 0; c < width; c += 1) logits[c] += textSum[c] * scale;
    for (const bucket of metaFeatures(meta, words, this.buckets)) {
      const offset = bucket * width;
      for (let c = 0; c < width; c += 1) logits[c] += values[c * 256 + weights[offset + c] + 128];
    }
    for (const [bucket, value] of lexiconFeatures(text, this.buckets)) {
      const offset = bucket * width;
      for (let c = 0; c < width; c += 1) logits[c] += values[c * 256 + weights[offset + c] + 128] * value;
    }
    return { logits, words };
  }

  predict(text: string, meta: MetaInput): Prediction {
    const { logits, words } = this.logits(text, meta);
    return { probabilities: softmax(logits, this.temperature), words };
  }
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
