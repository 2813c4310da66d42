/**
 * `npm run bench`: the service in two configurations against two baselines doing the same work on
 * the same data (see baseline-work.js): a bare NestJS route and a raw node:http + pg server. The
 * configurations (bench/targets.js) are `default`, the service as `npm start` runs it (workers in
 * the process, browser limits at their defaults, every browser its own address behind TRUST_PROXY),
 * and `scaled`, the API process of a scaled-out deployment (WORKERS=off, limits lifted, one address).
 * For every route the targets run in interleaved rounds (the order rotates each round); each
 * target's median over the rounds is reported, and each ratio is the median of the per-round ratios
 * (report.js). Also reported: server CPU time per request, read from /proc, which stays meaningful
 * on a machine that is busy with something else.
 *
 * Every target first serves the route unmeasured for BENCH_WARMUP_SECONDS, so that the rounds
 * compare code the JIT has optimised, not how fast each target warms up.
 *
 * Environment: BENCH_SECONDS (6), BENCH_WARMUP_SECONDS (3), BENCH_CONNECTIONS (50), BENCH_ROUNDS
 * (5), BENCH_ROUTES (all, or a comma list of route names), BENCH_CONFIGS (default,scaled),
 * BENCH_POOL_SIZE (10: the baselines' pool; the service's is DATABASE_POOL_SIZE, default 10),
 * DATABASE_URL (postgres://postgres@127.0.0.1:5432/postgres: databases of their own are created and
 * dropped there), REDIS_URL (redis://127.0.0.1:6379), BENCH_JSON (a path: write the results there
 * too), BENCH_CPU_PROFILE (a folder: the targets' CPU profiles), BENCH_RATE (unset: each target as
 * fast as it answers; a number: that many requests a second to every target, so that CPU µs per
 * request compares work done at one rate rather than at each target's own saturation; req/s
 * ratios then read about 100% and say nothing).
 * After the routes it times single sends at scale (bench/send-timings.js); with BENCH_ROUTES, only
 * when the list names `send timings`. Before anything else it times feedback classification
 * in-process (bench/classifier-timings.js); `BENCH_ROUTES=classifier` runs that step alone, without
 * starting any server. Last, the cluster numbers with one and two API processes and workers
 * (bench/cluster.js); `BENCH_ROUTES=cluster` runs that section alone, without the targets.
 * `npm run bench:soak` is another script: bench/soak.js.
 */
const autocannon = require('autocannon');
const { writeFileSync } = require('node:fs');
const { randomBytes } = require('node:crypto');
const { admin, cpuSeconds, createProject, databaseUrl, dropKeys } = require('./support');
const { ROUTES } = require('./routes');
const { sendTimings } = require('./send-timings');
const { webhookTimings } = require('./webhook-timings');
const { classifierTimings } = require('./classifier-timings');
const { clusterTimings, printCluster, runAlone } = require('./cluster');
const {
  ADDRESS_POOL,
  BASELINES,
  DEFAULT_TRUST_PROXY,
  PORTS,
  defaultEnv,
  fromNextAddress,
  selectedConfigs,
  startTargets,
  stopChild,
} = require('./targets');
const { CACHED, SETUP_CHECK, percent, printSummary, summarize } = require('./report');

const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const RATE = fixedRate(process.env.BENCH_RATE);
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const POOL_SIZE = Number(process.env.BENCH_POOL_SIZE ?? 10);
// What BENCH_JSON says of each configuration, beside its figures.
const SETUPS = {
  default: { workers: 'in the process', browserRateLimit: 'default', trustProxy: DEFAULT_TRUST_PROXY, clientAddresses: ADDRESS_POOL },
  scaled: { workers: 'off (WORKERS=off)', browserRateLimit: 'lifted', trustProxy: 'unset', clientAddresses: 1 },
};

/** BENCH_RATE: requests a second offered to every target, or null to load them as fast as they answer. */
function fixedRate(text) {
  if (text === undefined || text === '') return null;
  const rate = Number(text);
  if (!Number.isInteger(rate) || rate <= 0)
    throw new Error(`BENCH_RATE takes a whole number of requests a second, such as 1500; got ${text}`);
  return rate;
}

/** One autocannon run; the default target's requests each come from the next address of the pool. */
function load(target, route, context, seconds = SECONDS) {
  // `connection`: autocannon's context of the connection, the same object from a request to its answer.
  const build = (request, connection) => route.request(request, context, connection);
  const setupRequest = target === 'default' ? (request, connection) => fromNextAddress(build(request, connection)) : build;
  const onResponse = route.onResponse
    ? { onResponse: (status, _body, connection, headers) => route.onResponse(status, headers, context, connection) }
    : {};
  return new Promise((resolve, reject) => {
    const requests = [{ method: route.method, path: route.path, setupRequest, ...onResponse }];
    const rate = RATE ? { overallRate: RATE } : {};
    autocannon(
      { url: `http://127.0.0.1:${PORTS[target]}`, connections: CONNECTIONS, duration: seconds, requests, ...rate },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

/** The answers other than the route's expected ones (any 2xx for 200), by status. */
function unexpectedStatuses(result, expected) {
  const counts = {};
  const expectedStatuses = [expected].flat();
  for (const [status, stats] of Object.entries(result.statusCodeStats ?? {})) {
    const fine = expectedStatuses.some((one) => (one === 200 ? status.startsWith('2') : Number(status) === one));
    if (!fine && stats.count > 0) counts[status] = stats.count;
  }
  return counts;
}

async function measure(target, pid, route, context) {
  const cpuBefore = cpuSeconds(pid);
  const result = await load(target, route, context);
  const cpu = cpuSeconds(pid) - cpuBefore;
  const requests = result.requests.total;
  const unexpected = unexpectedStatuses(result, route.expectedStatus ?? 200);
  return {
    target,
    round: context.round,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuMicrosPerRequest: requests ? (cpu * 1e6) / requests : null,
    failures: result.errors + result.timeouts + Object.values(unexpected).reduce((sum, count) => sum + count, 0),
    unexpectedStatuses: unexpected,
  };
}

/**
 * The route's data, written once per database: the scaled target's (which the baselines share) and,
 * when measured, the default target's. Each target gets the context of its own database.
 */
async function prepareRoute(route, envs, configs) {
  const prepareOn = (config) =>
    route.prepare({ env: envs[config], createProject: (name) => createProject(envs[config], name), port: PORTS[config] });
  const scaled = await prepareOn('scaled');
  const own = configs.includes('default') ? await prepareOn('default') : null;
  return (target) => (target === 'default' ? own : scaled);
}

/**
 * `setup-check` data, written once a run: a cached route's share of `setup-check` is measured in the
 * same rounds (right after the route, on the same target), so a machine that slows down during a
 * run does not read as a slower route.
 */
let setupCheckContext = null;
const SETUP_CHECK_ROUTE = ROUTES.find((candidate) => candidate.name === SETUP_CHECK);

async function runRoute(route, envs, configs, children) {
  const targets = [...configs, ...BASELINES];
  const prepareStarted = Date.now();
  const contextOf = await prepareRoute(route, envs, configs);
  const besideSetupCheck = CACHED(route.name);
  if (besideSetupCheck && !setupCheckContext) setupCheckContext = await prepareRoute(SETUP_CHECK_ROUTE, envs, configs);
  const prepareSeconds = Math.round((Date.now() - prepareStarted) / 1000);
  // What runs beside the load on each configuration's data (the bell's changes), for the whole route.
  const stops = route.alongside
    ? await Promise.all(configs.map((config) => route.alongside({ env: envs[config], ...contextOf(config) })))
    : [];
  const samples = [];
  try {
    if (WARMUP_SECONDS > 0) {
      for (const target of targets) await load(target, route, { ...contextOf(target), target, round: -1 }, WARMUP_SECONDS);
    }
    for (let round = 0; round < ROUNDS; round += 1) {
      const order = targets.map((_, index) => targets[(index + round) % targets.length]);
      for (const target of order) {
        const sample = await measure(target, children[target].pid, route, { ...contextOf(target), target, round });
        if (besideSetupCheck && configs.includes(target)) {
          const context = { ...setupCheckContext(target), target, round };
          const check = await measure(target, children[target].pid, SETUP_CHECK_ROUTE, context);
          sample.setupCheckRps = check.rps;
          sample.setupCheckCpu = check.cpuMicrosPerRequest;
        }
        samples.push(sample);
      }
    }
  } finally {
    for (const stop of stops) await stop();
  }
  const summary = { ...summarize(route, samples, targets, configs), prepareSeconds };
  const said = configs.map(
    (config) => `${config} ${Math.round(summary.targets[config].rps)} req/s, ${percent(summary.ratios[config].vsBareNest)}`,
  );
  process.stderr.write(`${route.name} (data written in ${prepareSeconds} s): ${said.join('; ')} of bare nest\n`);
  return summary;
}

/** The load alone, for the start-up line: the seeding, sends, webhooks and cluster sections come on top. */
function loadMinutes(routeCount, targetCount) {
  return (routeCount * targetCount * (WARMUP_SECONDS + ROUNDS * SECONDS)) / 60;
}

async function main() {
  const started = Date.now();
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
  const configs = selectedConfigs();
  const databases = { scaled: `launch_bench_${process.pid}`, default: `launch_bench_${process.pid}_default` };
  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl(databases.scaled),
    REDIS_URL,
    QUEUE_PREFIX: `bench${process.pid}`,
    BENCH_POOL_SIZE: String(POOL_SIZE),
    // The scaled target and the baselines take every call from one address: the per-IP limit is lifted, not removed.
    BROWSER_RATE_LIMIT: '100000000',
    // One address for every target, so the public changelog's links, bodies and ETags agree.
    PUBLIC_BASE_URL: process.env.PUBLIC_BASE_URL ?? 'http://localhost',
    // One key for every target, so the baselines can open the signing secret the service sealed.
    ENCRYPTION_KEY: process.env.ENCRYPTION_KEY ?? randomBytes(32).toString('base64'),
  };
  const envs = { scaled: env, default: defaultEnv(env, databaseUrl(databases.default), `bench${process.pid}d`) };
  for (const database of Object.values(databases)) await admin(`CREATE DATABASE ${database}`);
  let children = {};
  const stopTargets = () => Promise.all(Object.values(children).map(stopChild));
  try {
    children = await startTargets(envs);
    const routeNames = wanted ?? ROUTES.map((route) => route.name);
    const routes = ROUTES.filter((candidate) => routeNames.includes(candidate.name));
    const targets = [...configs, ...BASELINES];
    process.stderr.write(
      `${routes.length} routes × ${targets.length} targets (${targets.join(', ')}): about ${Math.round(loadMinutes(routes.length, targets.length))} min of load\n`,
    );
    const summaries = [];
    for (const route of routes) summaries.push(await runRoute(route, envs, configs, children));
    if (summaries.length > 0) printSummary(summaries, targets, configs, RATE);
    // The default target has done its part: the sections below measure the scaled one.
    await stopChild(children.default);
    // Send latency at scale, unless a route list was asked for without it.
    let sends = null;
    if (!wanted || wanted.includes('send timings')) {
      sends = await sendTimings({ port: PORTS.scaled, env, createProject: (name) => createProject(env, name) });
      console.table(sends.map((row) => ({ ...row, median_ms: Math.round(row.median_ms) })));
    }
    // Webhook deliveries: one worker to a loopback receiver, and API call to receiver 2xx.
    let webhooks = null;
    if (!wanted || wanted.includes('webhooks')) {
      webhooks = await webhookTimings({ port: PORTS.scaled, env, createProject: (name) => createProject(env, name) });
      console.table(webhooks);
    }
    // One and two API processes and workers of their own (bench/cluster.js), once the targets are stopped.
    let cluster = null;
    if (!wanted || wanted.includes('cluster')) {
      await stopTargets();
      cluster = await clusterTimings(env);
      printCluster(cluster);
    }
    process.stderr.write(`bench: ${Math.round((Date.now() - started) / 60_000)} min in all\n`);
    if (process.env.BENCH_JSON) {
      const settings = {
        seconds: SECONDS,
        warmupSeconds: WARMUP_SECONDS,
        rate: RATE,
        connections: CONNECTIONS,
        rounds: ROUNDS,
        configs,
        setups: SETUPS,
      };
      writeFileSync(process.env.BENCH_JSON, JSON.stringify({ ...settings, summaries, sends, webhooks, classifier, cluster }, null, 2));
    }
  } finally {
    await stopTargets();
    for (const database of Object.values(databases)) await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await dropKeys(env);
    await dropKeys(envs.default);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
