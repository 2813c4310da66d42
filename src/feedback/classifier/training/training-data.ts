import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The labelled examples the model learns from: hand-written files in
 * test/fixtures/feedback-training/ (one example a line, `label [h=hint]
 * [r=rating] | text`, a file per language or class) plus the older
 * evaluation set, which the lexicon was tuned on and so is no longer a fair
 * test. The locked test set (test/fixtures/feedback-locked.json) is never
 * read here.
 */
export interface LabelledExample {
  readonly text: string;
  readonly categoryHint: string | null;
  readonly rating: number | null;
  readonly label: string;
  /** en, de, fr, es, pt or mixed; picks the language of augmented openers. */
  readonly language: string;
  readonly source: string;
}

// The same depth from src/ and from dist/, so the compiled script finds the data too.
export const REPO_ROOT = join(__dirname, '..', '..', '..', '..');
const TRAINING_DIR = join(REPO_ROOT, 'test', 'fixtures', 'feedback-training');
const EVALUATION_FILE = join(REPO_ROOT, 'test', 'fixtures', 'feedback-evaluation.json');

const HEADER = /^([a-z_]+)((?:\s+[hr]=[a-z_0-9]+)*)$/;

function parseLine(line: string, source: string, language: string, labels: ReadonlySet<string>): LabelledExample {
  const separator = line.indexOf(' | ');
  const header = HEADER.exec(separator < 0 ? '' : line.slice(0, separator).trim());
  if (header === null) throw new Error(`${source}: malformed line "${line}"`);
  const label = header[1];
  if (!labels.has(label)) throw new Error(`${source}: unknown label "${label}"`);
  let categoryHint: string | null = null;
  let rating: number | null = null;
  for (const pair of header[2].trim().split(/\s+/).filter(Boolean)) {
    const [key, value] = pair.split('=');
    if (key === 'h') categoryHint = value;
    else rating = Number(value);
  }
  return { text: line.slice(separator + 3).trim(), categoryHint, rating, label, language, source };
}

function languageOf(file: string): string {
  const prefix = file.slice(0, 2);
  return ['en', 'de', 'fr', 'es', 'pt'].includes(prefix) ? prefix : 'mixed';
}

/** Every training example, in a fixed order (files sorted by name, then line order). */
export function loadTrainingExamples(labels: readonly string[]): LabelledExample[] {
  const known = new Set(labels);
  const examples: LabelledExample[] = [];
  for (const file of readdirSync(TRAINING_DIR)
    .filter((name) => name.endsWith('.txt'))
    .sort()) {
    const lines = readFileSync(join(TRAINING_DIR, file), 'utf8').split('\n');
    for (const line of lines) {
      if (line.trim() === '' || line.startsWith('#')) continue;
      examples.push(parseLine(line, file, languageOf(file), known));
    }
  }
  const evaluation = JSON.parse(readFileSync(EVALUATION_FILE, 'utf8')) as {
    text: string;
    category_hint: string | null;
    rating: number | null;
    label: string;
  }[];
  for (const example of evaluation) {
    if (!known.has(example.label)) throw new Error(`feedback-evaluation.json: unknown label "${example.label}"`);
    examples.push({
      text: example.text,
      categoryHint: example.category_hint,
      rating: example.rating,
      label: example.label,
      language: 'mixed',
      source: 'feedback-evaluation.json',
    });
  }
  return examples;
}
