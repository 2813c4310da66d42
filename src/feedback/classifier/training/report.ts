/**
 * Accuracy, per-class precision/recall, confusion table and calibration per
 * confidence band, shared by the training script (cross-validation) and the
 * locked-set spec. Only aggregates are printed: individual misses of the
 * locked set are never listed, so it cannot be tuned on by reading them.
 */
export interface Outcome {
  readonly expected: string;
  readonly predicted: string;
  readonly confidence: number;
}

interface ClassMetrics {
  readonly label: string;
  readonly support: number;
  readonly precision: number;
  readonly recall: number;
}

interface Band {
  readonly from: number;
  readonly to: number;
  readonly count: number;
  readonly accuracy: number;
  readonly meanConfidence: number;
}

const CONFIDENCE_BANDS: readonly [number, number][] = [
  [0, 0.5],
  [0.5, 0.7],
  [0.7, 0.85],
  [0.85, 0.95],
  [0.95, 1.0001],
];

export function accuracy(outcomes: readonly Outcome[]): number {
  return outcomes.filter((outcome) => outcome.expected === outcome.predicted).length / Math.max(1, outcomes.length);
}

export function classMetrics(outcomes: readonly Outcome[], labels: readonly string[]): ClassMetrics[] {
  return labels.map((label) => {
    const relevant = outcomes.filter((outcome) => outcome.expected === label);
    const predicted = outcomes.filter((outcome) => outcome.predicted === label);
    const correct = relevant.filter((outcome) => outcome.predicted === label).length;
    return {
      label,
      support: relevant.length,
      precision: predicted.length === 0 ? 1 : correct / predicted.length,
      recall: relevant.length === 0 ? 1 : correct / relevant.length,
    };
  });
}

function calibration(outcomes: readonly Outcome[]): Band[] {
  return CONFIDENCE_BANDS.map(([from, to]) => {
    const inBand = outcomes.filter((outcome) => outcome.confidence >= from && outcome.confidence < to);
    const meanConfidence = inBand.reduce((sum, outcome) => sum + outcome.confidence, 0) / Math.max(1, inBand.length);
    return { from, to: Math.min(1, to), count: inBand.length, accuracy: accuracy(inBand), meanConfidence };
  });
}

const pct = (value: number): string => `${(value * 100).toFixed(1)}%`;

/** A plain-text report: overall accuracy, per-class table, confusion table, calibration. */
export function formatReport(title: string, outcomes: readonly Outcome[], labels: readonly string[]): string {
  const lines = [`${title}: accuracy ${pct(accuracy(outcomes))} on ${outcomes.length} examples`];
  lines.push('class            n  precision  recall');
  for (const metrics of classMetrics(outcomes, labels)) {
    lines.push(
      `${metrics.label.padEnd(15)} ${String(metrics.support).padStart(4)}  ${pct(metrics.precision).padStart(9)}  ${pct(metrics.recall).padStart(6)}`,
    );
  }
  lines.push(`confusion (rows: expected, columns: predicted): ${labels.join(' ')}`);
  for (const expected of labels) {
    const row = labels.map((predicted) =>
      String(outcomes.filter((outcome) => outcome.expected === expected && outcome.predicted === predicted).length).padStart(5),
    );
    lines.push(`${expected.padEnd(15)} ${row.join('')}`);
  }
  lines.push('confidence band   n   accuracy  mean confidence');
  for (const band of calibration(outcomes)) {
    lines.push(
      `${band.from.toFixed(2)}-${band.to.toFixed(2)}  ${String(band.count).padStart(5)}   ${pct(band.accuracy).padStart(6)}   ${band.meanConfidence.toFixed(2)}`,
    );
  }
  return lines.join('\n');
}
