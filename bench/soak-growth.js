/**
 * The soak's verdict on memory (bench/soak.js), apart from the run so that it can be tested
 * (test/bench/soak-growth.e2e-spec.ts): samples in, growth of each figure out.
 */
const { median } = require('./report');

/**
 * Growth of each memory figure from the start of the steady part (`fromSeconds` on) to the end,
 * compared over a window at each end that spans two cycles of the changes (two broadcasts, two
 * reports at least), so both windows hold the high and the low of the collector's swing: every
 * broadcast sends every poll of the next minute to the database, and RSS swings by a third with it,
 * so a single sample, or the median of a few consecutive ones, reads the phase they caught rather
 * than a trend. Judged on the peak of each window (the memory the process must be given, and what a
 * leak raises); the median of each window is reported beside it. Null with fewer than two samples
 * from `fromSeconds` on. `cycleSeconds`: the longest period of the changes (the soak's broadcasts);
 * `reportSeconds`: the time between samples.
 */
function growth(samples, fromSeconds, { cycleSeconds, reportSeconds }) {
  const steady = samples.filter((sample) => sample.seconds >= fromSeconds);
  if (steady.length < 2) return null;
  const width = Math.max(1, Math.min(Math.ceil((2 * cycleSeconds) / reportSeconds), Math.floor(steady.length / 2)));
  const start = steady.slice(0, width);
  const end = steady.slice(-width);
  const change = (name, summary) => {
    if (start[0][name] === null) return null;
    const before = summary(start.map((sample) => sample[name]));
    return before ? (summary(end.map((sample) => sample[name])) - before) / before : null;
  };
  const peak = (values) => Math.max(...values);
  return {
    fromSeconds: start.map((sample) => sample.seconds),
    toSeconds: end.map((sample) => sample.seconds),
    rss: change('rssMb', peak),
    rssMedian: change('rssMb', median),
    heapUsed: change('heapUsedMb', peak),
    external: change('externalMb', peak),
    heapAfterGc: change('heapAfterGcMb', peak),
  };
}

module.exports = { growth };
