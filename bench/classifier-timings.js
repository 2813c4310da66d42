/**
 * Feedback classification cost in-process (issue 13: a 5,000-character text under 1 ms on average),
 * no server or database involved: the built classifier from dist/ classifies texts of a few lengths
 * after a warm-up, and the mean per call is reported. `BENCH_ROUTES=classifier` runs only this step.
 */
const { join } = require('node:path');

const RUNS = 2_000;
const SENTENCES = [
  'I really like the new editor, it is much faster than before.',
  'But since yesterday the export to CSV stops at the first hundred rows and the file is cut off.',
  'Also, la factura de este mes tiene un importe distinto al del plan que contratamos.',
  'Könnt ihr bitte einen Dunkelmodus für die mobile App einbauen?',
  "Et comment est-ce qu'on invite un collègue qui n'a pas encore de compte ?",
  'Obrigado pela ajuda rápida da equipe de suporte na semana passada.',
];

function textOf(length, variant) {
  let text = '';
  for (let i = variant; text.length < length; i += 1) text += `${SENTENCES[i % SENTENCES.length]} `;
  return text.slice(0, length);
}

function classifierTimings() {
  const { classifyFeedback } = require(join(__dirname, '..', 'dist', 'feedback', 'classifier', 'classify-feedback.js'));
  const rows = [];
  for (const length of [100, 1_000, 5_000]) {
    // Distinct texts so that nothing downstream can cache an answer.
    const texts = Array.from({ length: 50 }, (_, variant) => textOf(length, variant));
    for (let i = 0; i < 200; i += 1) classifyFeedback({ text: texts[i % texts.length] });
    const started = process.hrtime.bigint();
    for (let i = 0; i < RUNS; i += 1) classifyFeedback({ text: texts[i % texts.length], categoryHint: null, rating: null });
    const meanMs = Number(process.hrtime.bigint() - started) / 1e6 / RUNS;
    rows.push({ characters: length, runs: RUNS, mean_ms: Number(meanMs.toFixed(3)) });
  }
  return rows;
}

module.exports = { classifierTimings };
