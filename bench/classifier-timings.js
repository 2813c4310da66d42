/**
 * Feedback classification cost in-process (issue 13: a 5,000-character text under 1 ms on average),
 * no server or database involved: the built classifier from dist/ classifies texts of a few lengths
 * after a warm-up, and the mean per call is reported. `BENCH_ROUTES=classifier` runs only this step.
 *
 * The texts are stitched from the labelled examples (test/fixtures/feedback-training/, spam left out):
 * real phrasings in the five languages, varied enough that a long text is not a few sentences over
 * and over. Such a text is what the spam rules call repetitive junk, and junk never reaches the model,
 * so a bench built that way timed the cheap path at 5,000 characters and the full one at 1,000. The
 * step fails if a bench text is called spam, so it always times the path real feedback takes.
 */
const { readFileSync, readdirSync } = require('node:fs');
const { join } = require('node:path');

const RUNS = 2_000;
const VARIANTS = 50;
const TRAINING_DIR = join(__dirname, '..', 'test', 'fixtures', 'feedback-training');

function proseExamples() {
  const texts = [];
  for (const file of readdirSync(TRAINING_DIR).sort()) {
    for (const line of readFileSync(join(TRAINING_DIR, file), 'utf8').split('\n')) {
      const separator = line.indexOf(' | ');
      if (line.startsWith('#') || separator < 0 || line.startsWith('spam')) continue;
      texts.push(line.slice(separator + 3).trim());
    }
  }
  return texts;
}

function textOf(prose, length, variant) {
  let text = '';
  // A prime stride walks through files and languages instead of one file's neighbouring lines.
  for (let i = variant * 37; text.length < length; i += 13) text += `${prose[i % prose.length]} `;
  return text.slice(0, length);
}

function classifierTimings() {
  const { classifyFeedback } = require(join(__dirname, '..', 'dist', 'feedback', 'classifier', 'classify-feedback.js'));
  const prose = proseExamples();
  const rows = [];
  for (const length of [100, 1_000, 5_000]) {
    // Distinct texts so that nothing downstream can cache an answer.
    const texts = Array.from({ length: VARIANTS }, (_, variant) => textOf(prose, length, variant));
    const spam = texts.filter((text) => classifyFeedback({ text }).classification === 'spam').length;
    if (spam > 0) throw new Error(`${spam} of the ${length}-character bench texts are classified as spam and would skip the model`);
    for (let i = 0; i < 200; i += 1) classifyFeedback({ text: texts[i % texts.length] });
    const started = process.hrtime.bigint();
    for (let i = 0; i < RUNS; i += 1) classifyFeedback({ text: texts[i % texts.length], categoryHint: null, rating: null });
    const meanMs = Number(process.hrtime.bigint() - started) / 1e6 / RUNS;
    rows.push({ characters: length, runs: RUNS, mean_ms: Number(meanMs.toFixed(3)) });
  }
  return rows;
}

module.exports = { classifierTimings };
