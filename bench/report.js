/**
 * What `npm run bench` makes of the rounds: each target's medians, the per-round ratios of each
 * service configuration to the baselines, and the markdown tables printed from them.
 */
const { LABELS } = require('./targets');

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * Per round, one service configuration against a baseline measured in that same round (seconds
 * apart): on a shared machine whose speed drifts over minutes, ratios of the same round cancel most
 * of the drift that a ratio of separate medians keeps. The median of those per-round ratios is
 * reported, with their lowest and highest; null when no round had both.
 */
function pairedRatios(samples, value, ours, baseline) {
  const ratios = [];
  for (const mine of samples.filter((sample) => sample.target === ours)) {
    const theirs = samples.find((sample) => sample.target === baseline && sample.round === mine.round);
    if (theirs && value(theirs) > 0) ratios.push(value(mine) / value(theirs));
  }
  return spreadOf(ratios);
}

/** Some ratios as the tables give them: their median with the lowest and highest; null without any. */
function spreadOf(values) {
  return values.length === 0 ? null : { median: median(values), min: Math.min(...values), max: Math.max(...values) };
}

/** The route's req/s over the `setup-check` measured right after it in the same round, per round; null when not measured. */
function setupCheckShares(samples, config) {
  return spreadOf(
    samples.filter((sample) => sample.target === config && sample.setupCheckRps).map((sample) => sample.rps / sample.setupCheckRps),
  );
}

/**
 * The same share read from CPU: setup-check's CPU µs per request over the route's, per round. It is
 * what the req/s share would be if both were served at the same rate with nothing else on the
 * machine; under saturation the req/s share also carries how the load generator, the database and
 * the target took turns on the cores (docs/benchmarks.md, Reading the numbers).
 */
function setupCheckCpuShares(samples, config) {
  return spreadOf(
    samples
      .filter((sample) => sample.target === config && sample.setupCheckCpu && sample.cpuMicrosPerRequest)
      .map((sample) => sample.setupCheckCpu / sample.cpuMicrosPerRequest),
  );
}

/** A route's figures: per target its medians over the rounds, per configuration its ratios. */
function summarize(route, samples, targets, configs) {
  const summary = { route: route.name, targets: {}, ratios: {}, samples };
  for (const target of targets) {
    const mine = samples.filter((sample) => sample.target === target);
    summary.targets[target] = {
      rps: median(mine.map((sample) => sample.rps)),
      p50: median(mine.map((sample) => sample.p50)),
      p99: median(mine.map((sample) => sample.p99)),
      cpu: median(mine.map((sample) => sample.cpuMicrosPerRequest ?? 0)),
      failures: mine.reduce((sum, sample) => sum + sample.failures, 0),
      // The answers that were not the expected one, by status (429s would show the limits tripping).
      statuses: mine.reduce((all, sample) => {
        for (const [status, count] of Object.entries(sample.unexpectedStatuses)) all[status] = (all[status] ?? 0) + count;
        return all;
      }, {}),
    };
  }
  const rps = (sample) => sample.rps;
  for (const config of configs) {
    summary.ratios[config] = {
      vsBareNest: pairedRatios(samples, rps, config, 'bare nest'),
      vsRawNode: pairedRatios(samples, rps, config, 'raw node'),
      p99VsBareNest: pairedRatios(samples, (sample) => sample.p99, config, 'bare nest'),
      cpuVsBareNest: pairedRatios(samples, (sample) => sample.cpuMicrosPerRequest ?? 0, config, 'bare nest'),
      ofSetupCheck: setupCheckShares(samples, config),
      ofSetupCheckCpu: setupCheckCpuShares(samples, config),
    };
  }
  return summary;
}

const percent = (ratio) =>
  ratio ? `${(ratio.median * 100).toFixed(0)}% (${(ratio.min * 100).toFixed(0)}-${(ratio.max * 100).toFixed(0)})` : 'n/a';
const times = (ratio) => (ratio ? `${ratio.median.toFixed(2)}× (${ratio.min.toFixed(2)}-${ratio.max.toFixed(2)})` : 'n/a');

/** Rows of objects as a markdown table, columns in the first row's key order. */
function markdownTable(rows) {
  if (rows.length === 0) return '';
  const columns = Object.keys(rows[0]);
  const cell = (value) => String(value ?? '').replace(/\|/g, '\\|');
  return [
    `| ${columns.join(' | ')} |`,
    `|${columns.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${columns.map((column) => cell(row[column])).join(' | ')} |`),
  ].join('\n');
}

/** Per route, each target's own figures: one row a target. */
function targetRows(summaries, targets) {
  const rows = [];
  for (const summary of summaries) {
    for (const target of targets) {
      const row = summary.targets[target];
      const statuses = Object.entries(row.statuses)
        .map(([status, count]) => `${count}×${status}`)
        .join(' ');
      rows.push({
        route: `\`${summary.route}\``,
        target: LABELS[target],
        'req/s': Math.round(row.rps),
        'p50 ms': row.p50,
        'p99 ms': row.p99,
        'cpu µs/req': Math.round(row.cpu),
        failures: statuses ? `${row.failures} (${statuses})` : row.failures,
      });
    }
  }
  return rows;
}

/** Per route, each service configuration against the baselines: one row a configuration. */
function ratioRows(summaries, configs) {
  const rows = [];
  for (const summary of summaries) {
    for (const config of configs) {
      const ratios = summary.ratios[config];
      rows.push({
        route: `\`${summary.route}\``,
        configuration: LABELS[config],
        'req/s / bare nest': percent(ratios.vsBareNest),
        'req/s / raw node': percent(ratios.vsRawNode),
        'p99 / bare nest': times(ratios.p99VsBareNest),
        'cpu / bare nest': times(ratios.cpuVsBareNest),
      });
    }
  }
  return rows;
}

/** Routes answered from the process's copy when nothing changed: held to the cost of a request that touches no database. */
const CACHED = (name) => /^GET \/(public\/)?changelog\//.test(name) || /^GET \/v1\/notifications\/unread\/count( 304)?$/.test(name);
const AFTER_A_CHANGE = / after a change$/;
const SETUP_CHECK = 'GET /v1/setup-check';

/**
 * The targets, per configuration: cached routes at ≥ 80% of the service's own setup-check
 * req/s and ≥ 3× the bare route that runs the uncached work; the poll after a change, its CPU
 * against the bare route's (the cost of the same SQL without a cache); every other route CPU
 * ≤ 1.15× and p99 ≤ 1.25× the bare route's. At a fixed rate (BENCH_RATE) every target answers
 * about as many requests a second, so the cached routes are held to the same shares read from CPU.
 */
function targetCheckRows(summaries, configs, fixedRate) {
  const rows = [];
  const setupCheck = summaries.find((summary) => summary.route === SETUP_CHECK);
  for (const summary of summaries) {
    for (const config of configs) {
      const ratios = summary.ratios[config];
      const rps = summary.targets[config].rps;
      const row = { route: `\`${summary.route}\``, configuration: LABELS[config], target: '', measured: '', met: '' };
      if (CACHED(summary.route) && fixedRate) {
        const share = ratios.ofSetupCheckCpu;
        // A bare route that kept up with the rate is compared by CPU; one that could not is compared by
        // req/s, which then understates the cached route (it answered all it was offered, unsaturated).
        const bareKeptUp = summary.targets['bare nest'].rps >= 0.95 * fixedRate;
        const cpu = ratios.cpuVsBareNest;
        const vsBare = bareKeptUp ? cpu && { median: 1 / cpu.median, min: 1 / cpu.max, max: 1 / cpu.min } : ratios.vsBareNest;
        row.target = `at ${fixedRate} req/s: ≥ 80% of setup-check by CPU, ≥ 3× bare`;
        row.measured = `by CPU ${percent(share)}; ${times(vsBare)} bare (${bareKeptUp ? 'by CPU' : 'by req/s: bare fell short of the rate'})`;
        row.met = share !== null && share.median >= 0.8 && vsBare?.median >= 3 ? 'yes' : 'no';
      } else if (CACHED(summary.route)) {
        // The share measured in the same rounds; a run from before that, or without it, uses the route's own setup-check.
        const share = ratios.ofSetupCheck ?? (setupCheck ? spreadOf([rps / setupCheck.targets[config].rps]) : null);
        row.target = '≥ 80% of setup-check req/s (same rounds), ≥ 3× bare';
        row.measured = `${percent(share)}; by CPU ${percent(ratios.ofSetupCheckCpu)}; ${times(ratios.vsBareNest)} bare`;
        row.met = share !== null && share.median >= 0.8 && ratios.vsBareNest?.median >= 3 ? 'yes' : 'no';
      } else if (AFTER_A_CHANGE.test(summary.route)) {
        row.target = 'CPU as the uncached poll (bare × kernel)';
        row.measured = `CPU ${times(ratios.cpuVsBareNest)}`;
        row.met = ratios.cpuVsBareNest?.median <= 1.15 * 1.1 ? 'yes' : 'no';
      } else {
        row.target = 'CPU ≤ 1.15×, p99 ≤ 1.25× bare';
        row.measured = `CPU ${times(ratios.cpuVsBareNest)}, p99 ${times(ratios.p99VsBareNest)}`;
        row.met = ratios.cpuVsBareNest?.median <= 1.15 && ratios.p99VsBareNest?.median <= 1.25 ? 'yes' : 'no';
      }
      rows.push(row);
    }
  }
  return rows;
}

/** The three tables; `fixedRate`: the BENCH_RATE the run offered, null when each target ran flat out. */
function printSummary(summaries, targets, configs, fixedRate = null) {
  console.log(`\n${markdownTable(targetRows(summaries, targets))}\n`);
  console.log(`${markdownTable(ratioRows(summaries, configs))}\n`);
  console.log(`${markdownTable(targetCheckRows(summaries, configs, fixedRate))}\n`);
}

module.exports = { CACHED, SETUP_CHECK, median, summarize, printSummary, markdownTable, percent };
