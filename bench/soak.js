/**
 * `npm run bench:soak`: the service in its default configuration (bench/targets.js: workers in the
 * process, browser limits at their defaults, TRUST_PROXY=1) serving a crowd of bell badges for
 * minutes, to see whether its memory settles.
 *
 * BENCH_SOAK_BROWSERS simulated browsers each poll `GET /v1/notifications/unread/count` as the bell
 * script does (src/browser/notifications/poller.ts): the publishable key, `user_id` and its
 * `user_hash`, each browser its own person, its own address (X-Forwarded-For) and its own
 * keep-alive connection; If-None-Match whenever an answer carried an ETag; the next poll 15-60 s
 * after the answer (never sooner than its `poll_interval_seconds`), or after Retry-After on a 429.
 * The page loads are spread over the first 60 s. Meanwhile changes trickle in through the secret
 * key: a notification to one of the browsers' people every BENCH_SOAK_SEND_SECONDS, a broadcast
 * every BENCH_SOAK_BROADCAST_SECONDS, so polls sometimes miss the process's copy of a bell.
 *
 * Every BENCH_SOAK_REPORT_SECONDS: the service's RSS, heap used and external memory (through
 * bench/memory-probe.js), its CPU, the answers served per second, the 304s among them, the
 * failures and p99. At the end: how much each memory figure grew after the first minute (or half
 * the run, when shorter): the peak of the samples of the first two cycles of the changes from then
 * (two broadcasts) against the peak of the last two cycles' (see soak-growth.js), with the medians of
 * the same windows beside it; the target is ≤ 10% for the RSS peak.
 *
 * Environment: BENCH_SOAK_SECONDS (600), BENCH_SOAK_BROWSERS (2000, at most 10,000),
 * BENCH_SOAK_REPORT_SECONDS (30), BENCH_SOAK_SEND_SECONDS (5), BENCH_SOAK_BROADCAST_SECONDS (60),
 * BENCH_SOAK_GC (on: also the heap right after a forced full collection, the figure a leak grows;
 * off by default, since forced collections shrink the RSS), BENCH_PORT_BASE, DATABASE_URL,
 * REDIS_URL and BENCH_JSON as for `npm run bench`.
 */
const http = require('node:http');
const { randomBytes } = require('node:crypto');
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { admin, cpuSeconds, createProject, databaseUrl, dropKeys, sleep, waitForHealth } = require('./support');
const { BELL_USERS, ROUTES } = require('./routes');
const { PORTS, assertFree, defaultEnv, poolAddress, startService, stopChild } = require('./targets');
const { markdownTable } = require('./report');
const { growth } = require('./soak-growth');

const SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 600);
const BROWSERS = Number(process.env.BENCH_SOAK_BROWSERS ?? 2000);
const REPORT_SECONDS = Number(process.env.BENCH_SOAK_REPORT_SECONDS ?? 30);
const SEND_SECONDS = Number(process.env.BENCH_SOAK_SEND_SECONDS ?? 5);
const BROADCAST_SECONDS = Number(process.env.BENCH_SOAK_BROADCAST_SECONDS ?? 60);
const POLL_SECONDS = { min: 15, max: 60 };
// Pages open at random times over the longest interval, so the polls come at a steady rate from the start.
const PAGE_LOADS_SECONDS = 60;
const GROWTH_TARGET = 0.1;
const BELL_PATH = '/v1/notifications/unread/count';
const MB = 1024 * 1024;

const randomBetween = (low, high) => low + Math.random() * (high - low);

/** The service's process.memoryUsage(), asked through the probe's IPC channel. */
function memoryOf(child) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the memory probe did not answer')), 10_000);
    child.once('message', (message) => {
      clearTimeout(timer);
      resolve(message);
    });
    child.send('memory');
  });
}

/** What the browsers saw since the last report: answers, failures, latencies. */
function freshWindow() {
  return { served: 0, notModified: 0, failures: 0, statuses: {}, latencies: [], browserLimits: new Set() };
}

function percentile(values, fraction) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))];
}

/** One GET on the browser's own connection: status, headers and the body as text (network errors: status 0). */
function get(agent, path, headers) {
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port: PORTS.default, path, headers, agent, timeout: 30_000 }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', () => resolve({ status: 0, headers: {}, body: '' }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve({ status: 0, headers: {}, body: '' }));
    req.end();
  });
}

/** The seconds until a browser polls again, as poller.ts decides it. */
function nextPollSeconds(answer, floorSeconds) {
  if (answer.status === 429) return Math.max(Number(answer.headers['retry-after'] ?? 0), floorSeconds);
  return Math.max(randomBetween(POLL_SECONDS.min, POLL_SECONDS.max), floorSeconds);
}

/** The crowd: each browser polls in its own loop until `stopped()`; resolves when every loop has ended. */
function runBrowsers(context, window, stopped) {
  const { project, hashes } = context;
  const loop = async (index) => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const headers = {
      authorization: `Bearer ${project.publishableKey}`,
      'x-service-user-hash': hashes[index],
      'x-forwarded-for': poolAddress(index),
    };
    let etag = null;
    let floorSeconds = 1;
    await sleep(Math.random() * PAGE_LOADS_SECONDS * 1000);
    while (!stopped()) {
      const started = process.hrtime.bigint();
      const answer = await get(agent, `${BELL_PATH}?user_id=user_${index}`, etag ? { ...headers, 'if-none-match': etag } : headers);
      const current = window();
      current.latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
      // The per-address limit each answer announces: proof that the limits run at their defaults.
      if (answer.headers['x-ratelimit-limit']) current.browserLimits.add(answer.headers['x-ratelimit-limit']);
      if (answer.status === 200 || answer.status === 304) {
        current.served += 1;
        if (answer.status === 304) current.notModified += 1;
        if (answer.headers.etag) etag = answer.headers.etag;
        if (answer.status === 200) floorSeconds = JSON.parse(answer.body).meta?.poll_interval_seconds ?? floorSeconds;
      } else {
        current.failures += 1;
        current.statuses[answer.status] = (current.statuses[answer.status] ?? 0) + 1;
      }
      const until = Date.now() + nextPollSeconds(answer, floorSeconds) * 1000;
      while (!stopped() && Date.now() < until) await sleep(Math.min(1000, until - Date.now()));
    }
    agent.destroy();
  };
  return Promise.all(Array.from({ length: BROWSERS }, (_, index) => loop(index)));
}

/** The changes that make polls miss: sends to one of the crowd's people, and broadcasts. */
function startTrickle(project, counts) {
  const send = async (body) => {
    const res = await fetch(`http://127.0.0.1:${PORTS.default}/v1/notifications`, {
      method: 'POST',
      headers: { authorization: `Bearer ${project.secretKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Something new', body: 'A soak send.', ...body }),
    }).catch(() => null);
    if (res?.status === 201) counts[body.audience === 'all' ? 'broadcasts' : 'sends'] += 1;
    else counts.failures += 1;
  };
  const timers = [
    setInterval(() => void send({ user_id: `user_${Math.floor(Math.random() * BROWSERS)}` }), SEND_SECONDS * 1000),
    setInterval(() => void send({ audience: 'all' }), BROADCAST_SECONDS * 1000),
  ];
  return () => timers.forEach(clearInterval);
}

/** The row without the columns of figures this run did not take (heap after GC without BENCH_SOAK_GC=on). */
const withoutNulls = (row) => Object.fromEntries(Object.entries(row).filter(([, value]) => value !== null));

function printSoak(result) {
  const rows = result.samples.map((sample) =>
    withoutNulls({
      s: sample.seconds,
      'rss MB': sample.rssMb,
      'heap used MB': sample.heapUsedMb,
      'external MB': sample.externalMb,
      'heap after GC MB': sample.heapAfterGcMb,
      'req/s': sample.rps,
      '304s': sample.notModified,
      errors: sample.errors,
      'p99 ms': sample.p99 ?? 'n/a',
      'cpu %': sample.cpuPercent,
      'X-RateLimit-Limit': sample.browserLimits.join(' '),
    }),
  );
  console.log(`\n${markdownTable(rows)}\n`);
  const { growth: grown, trickle } = result;
  const pct = (value) => (value === null ? 'n/a' : `${(value * 100).toFixed(1)}%`);
  if (grown) {
    const verdict = grown.rss <= GROWTH_TARGET ? 'within' : 'OVER';
    console.log(
      markdownTable([
        withoutNulls({
          'from (s)': grown.fromSeconds.join(', '),
          'to (s)': grown.toSeconds.join(', '),
          'rss peak growth': `${pct(grown.rss)} (${verdict} the ${pct(GROWTH_TARGET)} target)`,
          'rss median growth': pct(grown.rssMedian),
          'heap used peak growth': pct(grown.heapUsed),
          'external peak growth': pct(grown.external),
          'heap after GC peak growth': grown.heapAfterGc === null ? null : pct(grown.heapAfterGc),
        }),
      ]),
    );
  } else {
    console.log('Too short a run for a growth figure: at least two samples are needed after the first one counted.');
  }
  console.log(
    `\n${result.browsers} browsers, ${trickle.sends} sends, ${trickle.broadcasts} broadcasts, ${trickle.failures} failed changes\n`,
  );
}

async function soak(env) {
  await assertFree(PORTS.default);
  const service = startService('default', env, join(__dirname, 'memory-probe.js'));
  try {
    await waitForHealth(PORTS.default, service);
    const route = ROUTES.find((candidate) => candidate.path === BELL_PATH);
    process.stderr.write(`soak: seeding the bell of ${BELL_USERS} people\n`);
    const context = await route.prepare({ env, createProject: (name) => createProject(env, name), port: PORTS.default });
    let current = freshWindow();
    let stopping = false;
    const trickle = { sends: 0, broadcasts: 0, failures: 0 };
    const stopTrickle = startTrickle(context.project, trickle);
    const crowd = runBrowsers(
      context,
      () => current,
      () => stopping,
    );
    const samples = [];
    const started = Date.now();
    let cpuBefore = cpuSeconds(service.pid);
    for (let seconds = REPORT_SECONDS; seconds <= SECONDS; seconds += REPORT_SECONDS) {
      await sleep(Math.max(0, started + seconds * 1000 - Date.now()));
      const seen = current;
      current = freshWindow();
      const { memory, heapAfterGc } = await memoryOf(service);
      const cpu = cpuSeconds(service.pid);
      samples.push({
        seconds,
        rssMb: Math.round(memory.rss / MB),
        heapUsedMb: Math.round(memory.heapUsed / MB),
        externalMb: Math.round(memory.external / MB),
        heapAfterGcMb: heapAfterGc === null ? null : Math.round(heapAfterGc / MB),
        rps: Math.round(seen.served / REPORT_SECONDS),
        notModified: seen.notModified,
        errors: seen.failures,
        statuses: seen.statuses,
        browserLimits: [...seen.browserLimits],
        p99: seen.latencies.length ? Math.round(percentile(seen.latencies, 0.99)) : null,
        cpuPercent: Math.round(((cpu - cpuBefore) / REPORT_SECONDS) * 100),
      });
      cpuBefore = cpu;
      const last = samples.at(-1);
      process.stderr.write(
        `soak ${seconds}s: rss ${last.rssMb} MB, heap ${last.heapUsedMb} MB, ${last.rps} req/s, ${last.errors} errors, p99 ${last.p99} ms\n`,
      );
    }
    stopping = true;
    stopTrickle();
    await crowd;
    return {
      seconds: SECONDS,
      browsers: BROWSERS,
      samples,
      growth: growth(samples, Math.min(60, SECONDS / 2), {
        cycleSeconds: Math.max(BROADCAST_SECONDS, REPORT_SECONDS),
        reportSeconds: REPORT_SECONDS,
      }),
      trickle,
    };
  } finally {
    if (service.connected) service.disconnect();
    await stopChild(service);
  }
}

async function main() {
  if (BROWSERS > BELL_USERS) throw new Error(`BENCH_SOAK_BROWSERS is at most ${BELL_USERS} (the people of the seeded bell)`);
  const database = `launch_soak_${process.pid}`;
  const shared = {
    ...process.env,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    PUBLIC_BASE_URL: process.env.PUBLIC_BASE_URL ?? 'http://localhost',
    ENCRYPTION_KEY: process.env.ENCRYPTION_KEY ?? randomBytes(32).toString('base64'),
  };
  const env = defaultEnv(shared, databaseUrl(database), `soak${process.pid}`);
  await admin(`CREATE DATABASE ${database}`);
  try {
    const result = await soak(env);
    printSoak(result);
    if (process.env.BENCH_JSON)
      writeFileSync(process.env.BENCH_JSON, JSON.stringify({ soak: { ...result, growthTarget: GROWTH_TARGET } }, null, 2));
  } finally {
    await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await dropKeys(env);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
