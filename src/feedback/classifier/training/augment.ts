import type { LabelledExample } from './training-data';

/**
 * Deterministic augmentation, applied to the training part only (inside
 * cross-validation too, after the split, so no variant of a held-out example
 * is ever trained on). It teaches the two label rules the data must agree on
 * and the noise real users add:
 * - praise + one actionable intent is the actionable class ("Love it, but
 *   I was charged twice" is billing): actionable examples get a compliment
 *   in front;
 * - sarcastic praise about a problem is the problem ("Great, another crash"):
 *   bug and billing examples get an ironic frame;
 * - typos: short examples get a copy with dropped, doubled or swapped letters.
 *
 * Most hand-written examples come without a category hint or rating, but in
 * the widget about half of the users pick a category (mostly the right one,
 * about one pick in six a misclick or the area rather than the intent) and
 * some leave stars that follow their tone. withMetadata() gives examples that
 * have none a plausible, seeded hint and rating: the rating is a feature the
 * model learns; the hint is not (its weight is fixed, see linear-model.ts),
 * but cross-validation measures with it, as messages arrive.
 */
const OPENERS: Record<string, readonly string[]> = {
  en: [
    'Love the app, but',
    'Great product overall. However,',
    'Really enjoying it so far!',
    'Nice work on the update, though',
    'Awesome tool 👍',
  ],
  de: ['Tolle App, aber', 'Eigentlich super, nur:', 'Gefällt mir sehr!', 'Klasse Arbeit, aber'],
  fr: ["J'adore l'appli, mais", 'Super outil, par contre', 'Très bonne appli !', 'Bravo pour la mise à jour, mais'],
  es: ['Me encanta la app, pero', 'Muy buena herramienta, aunque', '¡Excelente app!', 'Buen trabajo, pero'],
  pt: ['Amo o app, mas', 'Ferramenta ótima, porém', 'App excelente!', 'Bom trabalho, mas'],
};

const SARCASM: Record<string, readonly [string, string][]> = {
  en: [
    ['Oh great,', 'Thanks a lot.'],
    ['Wow, amazing.', 'Just perfect.'],
    ['Fantastic job:', '🙄'],
  ],
  de: [['Na super,', 'Danke auch.']],
  fr: [['Génial,', 'Merci bien.']],
  es: [['Genial,', 'Gracias por nada.']],
  pt: [['Ótimo,', 'Valeu mesmo.']],
};

const ACTIONABLE = new Set(['bug', 'billing', 'feature_request', 'support']);
const PROBLEMS = new Set(['bug', 'billing']);

/** mulberry32: a small seeded generator, so every run augments identically. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function stringSeed(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

function pick<T>(items: readonly T[], random: () => number): T {
  return items[Math.floor(random() * items.length)];
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

function misspellWord(word: string, random: () => number): string {
  const i = 1 + Math.floor(random() * (word.length - 2));
  const kind = random();
  if (kind < 0.35) return word.slice(0, i) + word.slice(i + 1);
  if (kind < 0.6) return word.slice(0, i) + word[i] + word.slice(i);
  if (kind < 0.85) return word.slice(0, i - 1) + word[i] + word[i - 1] + word.slice(i + 1);
  return word.toLowerCase();
}

function misspell(text: string, random: () => number): string {
  const typed = text.replace(/\p{L}{4,}/gu, (word) => (random() < 0.3 ? misspellWord(word, random) : word));
  // People who type fast also skip capitals and final punctuation.
  return random() < 0.5 ? typed.toLowerCase().replace(/[.!]+$/u, '') : typed;
}

// The widget's categories (CATEGORY_HINTS): "other" and "spam" are not offered.
const HINTS = ['bug', 'feature_request', 'praise', 'billing', 'support'];
// Star distributions per label: [1, 2, 3, 4, 5] weights.
const RATINGS: Record<string, readonly number[]> = {
  bug: [35, 30, 15, 10, 10],
  billing: [35, 30, 20, 10, 5],
  feature_request: [3, 10, 30, 40, 17],
  support: [10, 15, 40, 20, 15],
  praise: [2, 3, 5, 25, 65],
  other: [10, 10, 60, 15, 5],
  spam: [25, 5, 15, 5, 50],
};

function weightedPick(weights: readonly number[], random: () => number): number {
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  let roll = random() * total;
  for (let i = 0; i < weights.length; i += 1) {
    roll -= weights[i];
    if (roll < 0) return i;
  }
  return weights.length - 1;
}

function withMetadata(example: LabelledExample, random: () => number): LabelledExample {
  if (example.categoryHint !== null || example.rating !== null) return example;
  const hintRoll = random();
  const hintable = HINTS.includes(example.label);
  let categoryHint: string | null = null;
  if (hintable && hintRoll < 0.42) categoryHint = example.label;
  else if (hintRoll < (hintable ? 0.5 : 0.3))
    categoryHint = pick(
      HINTS.filter((hint) => hint !== example.label),
      random,
    );
  const rating = random() < 0.4 ? weightedPick(RATINGS[example.label] ?? RATINGS.other, random) + 1 : null;
  return { ...example, categoryHint, rating };
}

/** The example as it would arrive through the widget (seeded hint and rating when it has none). */
export function withWidgetMetadata(example: LabelledExample): LabelledExample {
  return withMetadata(example, seededRandom(stringSeed(`${example.label}|${example.text}`)));
}

function languageOf(example: LabelledExample, random: () => number): string {
  return example.language in OPENERS ? example.language : random() < 0.7 ? 'en' : pick(Object.keys(OPENERS), random);
}

/** The examples plus their augmented variants, in a stable order. */
export function augment(examples: readonly LabelledExample[]): LabelledExample[] {
  const out: LabelledExample[] = [];
  for (const original of examples) {
    const random = seededRandom(stringSeed(`${original.label}|${original.text}`));
    const example = withMetadata(original, random);
    out.push(example);
    const language = languageOf(example, random);
    const words = example.text.split(/\s+/).length;
    if (ACTIONABLE.has(example.label) && words <= 30 && random() < 0.5) {
      const opener = pick(OPENERS[language], random);
      out.push({ ...example, text: `${opener} ${lowerFirst(example.text)}`, source: `${example.source}#praise` });
    }
    if (PROBLEMS.has(example.label) && words <= 20 && random() < 0.3) {
      const [before, after] = pick(SARCASM[language], random);
      out.push({ ...example, text: `${before} ${lowerFirst(example.text)} ${after}`, source: `${example.source}#sarcasm` });
    }
    if (words <= 25 && example.label !== 'spam' && random() < 0.5) {
      out.push({ ...example, text: misspell(example.text, random), source: `${example.source}#typo` });
    }
  }
  return out;
}
