/**
 * `npm run bench`: the service against two baselines doing the same work on the same database
 * (see baseline-work.js): a bare NestJS route and a raw node:http + pg server. For every route the
 * three targets run in interleaved rounds (the order rotates each round); each target's median over
 * the rounds is reported, and each ratio is the median of the per-round ratios (pairedRatios).
 * Also reported: server CPU time per request, read from /proc, which stays meaningful on a machine
 * that is busy with something else.
 *
 * Every target first serves the route unmeasured for BENCH_WARMUP_SECONDS, so that the rounds
 * compare code the JIT has optimised, not how fast each target warms up.
 *
 * Environment: BENCH_SECONDS (6), BENCH_WARMUP_SECONDS (3), BENCH_CONNECTIONS (50), BENCH_ROUNDS
 * (5), BENCH_ROUTES (all, or a comma list of route names), DATABASE_URL (postgres://postgres@127.0.0.1:5432/postgres: a
 * database of its own is created and dropped there), REDIS_URL (redis://127.0.0.1:6379),
 * BENCH_JSON (a path: write the results there too), BENCH_CPU_PROFILE (a folder: the service's CPU profile).
 * After the routes it times single sends at scale (bench/send-timings.js); with BENCH_ROUTES, only
 * when the list names `send timings`. Before anything else it times feedback classification
 * in-process (bench/classifier-timings.js); `BENCH_ROUTES=classifier` runs that step alone, without
 * starting any server. Last, the cluster numbers with one and two API processes and workers
 * (bench/cluster.js); `BENCH_ROUTES=cluster` runs that section alone, without the three targets.
 */
const autocannon = require('autocannon');
const { fork, spawn } = require('node:child_process');
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { randomBytes } = require('node:crypto');
const { NODE_FLAGS, admin, cpuSeconds, createProject, databaseUrl, dropKeys, waitForHealth } = require('./support');
const { ROUTES } = require('./routes');
const { sendTimings } = require('./send-timings');
const { webhookTimings } = require('./webhook-timings');
const { classifierTimings } = require('./classifier-timings');
const { clusterTimings, printCluster, runAlone } = require('./cluster');

const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const POOL_SIZE = 10;
const PORTS = { service: 3977, 'bare nest': 3978, 'raw node': 3979 };
const TARGETS = Object.keys(PORTS);

/** BENCH_CPU_PROFILE=<dir>: each target writes a V8 CPU profile to <dir>/<target> when it stops (open it in Chrome DevTools). */
function profileFlags(target) {
  const dir = process.env.BENCH_CPU_PROFILE;
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${join(dir, target.replace(' ', '-'))}`] : [];
}

function startTargets(env) {
  const dist = join(__dirname, '..', 'dist');
  const quiet = { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] };
  return {
    service: spawn(process.execPath, [...NODE_FLAGS, ...profileFlags('service'), join(dist, 'main.js')], {
      env: { ...env, PORT: String(PORTS.service), WORKERS: 'off' },
      stdio: ['ignore', 'ignore', 'inherit'],
    }),
    'bare nest': fork(join(__dirname, 'baseline-nest.js'), {
      env: { ...env, PORT: String(PORTS['bare nest']) },
      execArgv: [...NODE_FLAGS, ...profileFlags('bare nest')],
      ...quiet,
    }),
    'raw node': fork(join(__dirname, 'baseline-node.js'), {
      env: { ...env, PORT: String(PORTS['raw node']) },
      execArgv: [...NODE_FLAGS, ...profileFlags('raw node')],
      ...quiet,
    }),
  };
}

function load(port, route, context, seconds = SECONDS) {
  return new Promise((resolve, reject) => {
    const requests = [{ method: route.method, path: route.path, setupRequest: (request) => route.request(request, context) }];
    autocannon({ url: `http://127.0.0.1:${port}`, connections: CONNECTIONS, duration: seconds, requests }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
  });
}

async function measure(target, pid, port, route, context) {
  const cpuBefore = cpuSeconds(pid);
  const result = await load(port, route, context);
  const cpu = cpuSeconds(pid) - cpuBefore;
  const requests = result.requests.total;
  // A route that expects another answer than 2xx (a 304) counts every other answer as a failure.
  const expected = route.expectedStatus ?? 200;
  const unexpected = expected === 200 ? result.non2xx : requests - (result.statusCodeStats?.[expected]?.count ?? 0);
  return {
    target,
    round: context.round,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuMicrosPerRequest: requests ? (cpu * 1e6) / requests : null,
    failures: result.errors + result.timeouts + unexpected,
  };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * Per round, the service against the baselines measured in that same round (seconds apart): on a
 * shared machine whose speed drifts over minutes, ratios of the same round cancel most of the drift
 * that a ratio of separate medians keeps. The median of those per-round ratios is reported, with
 * their lowest and highest.
 */
function pairedRatios(samples, value, baseline) {
  const ratios = [];
  for (const ours of samples.filter((sample) => sample.target === 'service')) {
    const theirs = samples.find((sample) => sample.target === baseline && sample.round === ours.round);
    if (theirs && value(theirs) > 0) ratios.push(value(ours) / value(theirs));
  }
  return { median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios) };
}

function summarize(route, samples) {
  const rows = {};
  for (const target of TARGETS) {
    const mine = samples.filter((sample) => sample.target === target);
    rows[target] = {
      rps: median(mine.map((sample) => sample.rps)),
      p50: median(mine.map((sample) => sample.p50)),
      p99: median(mine.map((sample) => sample.p99)),
      cpu: median(mine.map((sample) => sample.cpuMicrosPerRequest ?? 0)),
      failures: mine.reduce((sum, sample) => sum + sample.failures, 0),
    };
  }
  const rps = (sample) => sample.rps;
  return {
    route: route.name,
    ...rows,
    vsBareNest: pairedRatios(samples, rps, 'bare nest'),
    vsRawNode: pairedRatios(samples, rps, 'raw node'),
    p99VsBareNest: pairedRatios(samples, (sample) => sample.p99, 'bare nest'),
    cpuVsBareNest: pairedRatios(samples, (sample) => sample.cpuMicrosPerRequest ?? 0, 'bare nest'),
    samples,
  };
}

const percent = (ratio) => `${(ratio.median * 100).toFixed(0)}% (${(ratio.min * 100).toFixed(0)}-${(ratio.max * 100).toFixed(0)})`;
const times = (ratio) => `${ratio.median.toFixed(2)}× (${ratio.min.toFixed(2)}-${ratio.max.toFixed(2)})`;

function printSummary(summaries) {
  const table = [];
  for (const summary of summaries) {
    for (const target of TARGETS) {
      const row = summary[target];
      table.push({
        route: summary.route,
        target,
        'req/s': Math.round(row.rps),
        'p50 ms': row.p50,
        'p99 ms': row.p99,
        'cpu µs/req': Math.round(row.cpu),
        failures: row.failures,
      });
    }
  }
  console.table(table);
  console.table(
    summaries.map((summary) => ({
      route: summary.route,
      'ours / bare nest': percent(summary.vsBareNest),
      'ours / raw node': percent(summary.vsRawNode),
      'p99 ours / bare nest': times(summary.p99VsBareNest),
      'cpu ours / bare nest': times(summary.cpuVsBareNest),
    })),
  );
}

async function main() {
  const wanted = process.env.BENCH_ROUTES ? process.env.BENCH_ROUTES.split(',') : null;
  // The cluster section starts processes of its own: alone, it needs none of the targets.
  if (wanted && wanted.length === 1 && wanted[0] === 'cluster') return runAlone();
  // In-process and first, before servers compete for the CPU.
  let classifier = null;
  if (!wanted || wanted.includes('classifier')) {
    classifier = classifierTimings();
    console.table(classifier);
    if (wanted && wanted.length === 1) {
      if (process.env.BENCH_JSON) writeFileSync(process.env.BENCH_JSON, JSON.stringify({ classifier }, null, 2));
      return;
    }
  }
  const database = `launch_bench_${process.pid}`;
  await admin(`CREATE DATABASE ${database}`);
  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl(database),
    REDIS_URL,
    QUEUE_PREFIX: `bench${process.pid}`,
    BENCH_POOL_SIZE: String(POOL_SIZE),
    // Every browser call of a run comes from one address: the per-IP limit is lifted, not removed.
    BROWSER_RATE_LIMIT: '100000000',
    // One address for every target, so the public changelog's links, bodies and ETags agree.
    PUBLIC_BASE_URL: process.env.PUBLIC_BASE_URL ?? 'http://localhost',
    // One key for every target, so the baselines can open the signing secret the service sealed.
    ENCRYPTION_KEY: process.env.ENCRYPTION_KEY ?? randomBytes(32).toString('base64'),
  };
  const targets = startTargets(env);
  const stopTargets = async () => {
    for (const child of Object.values(targets)) if (child.exitCode === null) child.kill('SIGTERM');
    await Promise.all(
      Object.values(targets).map((child) => (child.exitCode === null ? new Promise((resolve) => child.once('exit', resolve)) : null)),
    );
  };
  try {
    // The service migrates the database at start; the baselines only need it to exist.
    await waitForHealth(PORTS.service, targets.service);
    await Promise.all(['bare nest', 'raw node'].map((target) => waitForHealth(PORTS[target], targets[target])));
    const routeNames = wanted ?? ROUTES.map((route) => route.name);
    const summaries = [];
    for (const route of ROUTES.filter((candidate) => routeNames.includes(candidate.name))) {
      const context = await route.prepare({ env, createProject: (name) => createProject(env, name), port: PORTS.service });
      if (WARMUP_SECONDS > 0) {
        for (const target of TARGETS) await load(PORTS[target], route, { ...context, target, round: -1 }, WARMUP_SECONDS);
      }
      const samples = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        const order = TARGETS.map((_, index) => TARGETS[(index + round) % TARGETS.length]);
        for (const target of order) {
          samples.push(await measure(target, targets[target].pid, PORTS[target], route, { ...context, target, round }));
        }
      }
      const summary = summarize(route, samples);
      summaries.push(summary);
      process.stderr.write(`${route.name}: ours ${Math.round(summary.service.rps)} req/s, ${percent(summary.vsBareNest)} of bare nest\n`);
    }
    if (summaries.length > 0) printSummary(summaries);
    // Send latency at scale, unless a route list was asked for without it.
    let sends = null;
    if (!process.env.BENCH_ROUTES || wanted.includes('send timings')) {
      sends = await sendTimings({ port: PORTS.service, env, createProject: (name) => createProject(env, name) });
      console.table(sends.map((row) => ({ ...row, median_ms: Math.round(row.median_ms) })));
    }
    // Webhook deliveries: one worker to a loopback receiver, and API call to receiver 2xx.
    let webhooks = null;
    if (!process.env.BENCH_ROUTES || wanted.includes('webhooks')) {
      webhooks = await webhookTimings({ port: PORTS.service, env, createProject: (name) => createProject(env, name) });
      console.table(webhooks);
    }
    // One and two API processes and workers of their own (bench/cluster.js), once the targets are stopped.
    let cluster = null;
    if (!process.env.BENCH_ROUTES || wanted.includes('cluster')) {
      await stopTargets();
      cluster = await clusterTimings(env);
      printCluster(cluster);
    }
    if (process.env.BENCH_JSON)
      writeFileSync(
        process.env.BENCH_JSON,
        JSON.stringify(
          { seconds: SECONDS, connections: CONNECTIONS, rounds: ROUNDS, summaries, sends, webhooks, classifier, cluster },
          null,
          2,
        ),
      );
  } finally {
    await stopTargets();
    await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await dropKeys(env);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
