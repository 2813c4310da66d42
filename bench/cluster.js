/**
 * The cluster numbers (issue 31): what a second process buys. Webhook deliveries per second with one
 * and two worker processes; bell polls (`GET /v1/notifications/unread/count`) and waitlist signups
 * per second with one and two API processes (`WORKERS=off`), all started from the build on the
 * machine's PostgreSQL and Redis. For every figure: the processes' CPU time per request (from /proc,
 * summed over the processes), that of the PostgreSQL backends serving them, the load generator's own
 * (this process), and how busy the whole machine was meanwhile (/proc/stat, other work included). Also each process's resident memory when
 * idle and after the load, and its connections to PostgreSQL and Redis (its sockets, from /proc).
 *
 * Load is spread over two API processes by one autocannon instance per process, run at the same
 * time with half the connections each, not by a proxy in front: on a 2-core machine a proxy would
 * spend the same cores the API processes need, and would measure itself. 1 and 2 API processes take
 * turns in every round (the order alternates), as `npm run bench` interleaves its targets.
 *
 * The last section of `npm run bench`; `BENCH_ROUTES=cluster npm run bench` runs it alone, on a
 * database of its own that is created and dropped (and `node bench/cluster.js` after a build). Environment:
 * BENCH_CLUSTER_SECONDS (5), BENCH_CLUSTER_ROUNDS (3), BENCH_CLUSTER_DELIVERIES (3,000 a round),
 * BENCH_CONNECTIONS (50), BENCH_WARMUP_SECONDS (3), DATABASE_URL, REDIS_URL, BENCH_JSON.
 */
const autocannon = require('autocannon');
const { spawn } = require('node:child_process');
const { existsSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { randomBytes } = require('node:crypto');
const { Client } = require('pg');
const { NODE_FLAGS, admin, cpuSeconds, createProject, databaseUrl, dropKeys, sleep, waitForHealth } = require('./support');
const { ROUTES } = require('./routes');
const { insertEndpoint, startReceiver, throughput } = require('./webhook-timings');

const SECONDS = Number(process.env.BENCH_CLUSTER_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_CLUSTER_ROUNDS ?? 3);
const DELIVERIES = Number(process.env.BENCH_CLUSTER_DELIVERIES ?? 3_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const API_PORTS = [3981, 3982];
const ROUTE_NAMES = ['GET /v1/notifications/unread/count', 'POST /v1/waitlist/signups'];
const dist = join(__dirname, '..', 'dist');

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Resident memory of a process, MB. */
function rssMb(pid) {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((row) => row.startsWith('VmRSS:'));
  return Math.round(Number(line.split(/\s+/)[1]) / 1024);
}

/** Busy and total jiffies of the whole machine so far (every core, every process). */
function machineTicks() {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].split(/\s+/).slice(1).map(Number);
  const idle = fields[3] + fields[4];
  const total = fields.reduce((sum, value) => sum + value, 0);
  return { busy: total - idle, total };
}

/** The process's TCP connections to `port` (PostgreSQL's, Redis's): its socket inodes matched in /proc/net/tcp*. */
function connectionsTo(pid, port) {
  const inodes = new Set();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (match) inodes.add(match[1]);
    } catch {
      // closed meanwhile
    }
  }
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  let count = 0;
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(table)) continue;
    for (const row of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const cols = row.trim().split(/\s+/);
      // remote address, state 01 (established), inode
      if (cols.length > 9 && cols[2].endsWith(`:${hexPort}`) && cols[3] === '01' && inodes.has(cols[9])) count += 1;
    }
  }
  return count;
}

function backendPorts(env) {
  return { postgres: Number(new URL(env.DATABASE_URL).port || 5432), redis: Number(new URL(env.REDIS_URL).port || 6379) };
}

function processFacts(role, child, env) {
  const ports = backendPorts(env);
  return {
    process: role,
    'rss MB': rssMb(child.pid),
    'PostgreSQL connections': connectionsTo(child.pid, ports.postgres),
    'Redis connections': connectionsTo(child.pid, ports.redis),
  };
}

async function stop(child) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

async function startApi(env, port) {
  const child = spawn(process.execPath, [...NODE_FLAGS, join(dist, 'main.js')], {
    env: { ...env, PORT: String(port), WORKERS: 'off', LOG_LEVEL: 'error' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitForHealth(port, child);
  } catch (error) {
    await stop(child);
    throw error;
  }
  return child;
}

/** A worker is ready once it has written its first heartbeat (as the cluster tests wait for it). */
async function startWorker(env) {
  const dataDir = mkdtempSync(join(tmpdir(), 'launch-bench-worker-'));
  const child = spawn(process.execPath, [...NODE_FLAGS, join(dist, 'worker.js')], {
    env: { ...env, DATA_DIR: dataDir, LOG_LEVEL: 'error', WEBHOOK_ALLOW_INSECURE_URLS: 'true' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  child.once('exit', () => rmSync(dataDir, { recursive: true, force: true }));
  for (let i = 0; i < 240 && !existsSync(join(dataDir, 'worker.heartbeat')); i += 1) {
    if (child.exitCode !== null) throw new Error(`worker exited with ${child.exitCode}`);
    await sleep(250);
  }
  if (!existsSync(join(dataDir, 'worker.heartbeat'))) {
    await stop(child);
    throw new Error('worker did not start');
  }
  return child;
}

/** The PostgreSQL backends serving the bench database, but for `client`'s own (what the bench itself runs). */
async function backendPids(client) {
  const { rows } = await client.query('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
  return rows.map((row) => row.pid);
}

const cpuOrNull = (pid) => {
  try {
    return cpuSeconds(pid);
  } catch {
    return null; // ended meanwhile
  }
};

/**
 * Runs `work` while counting the CPU of `pids`, of the PostgreSQL backends that serve them (those
 * open before and after: the pools are warm by then), of this process (the load generator) and of
 * the machine.
 */
async function metered(pids, client, work) {
  const backends = new Map((await backendPids(client)).map((pid) => [pid, cpuOrNull(pid)]));
  const before = { cpu: pids.map(cpuSeconds), own: process.cpuUsage(), machine: machineTicks() };
  const result = await work();
  const own = process.cpuUsage(before.own);
  const machine = machineTicks();
  let postgresCpu = 0;
  for (const [pid, start] of backends) {
    const end = cpuOrNull(pid);
    if (start !== null && end !== null) postgresCpu += end - start;
  }
  return {
    result,
    cpu: pids.reduce((sum, pid, index) => sum + cpuSeconds(pid) - before.cpu[index], 0),
    postgresCpu,
    generatorCpu: (own.user + own.system) / 1e6,
    machineBusy: (machine.busy - before.machine.busy) / (machine.total - before.machine.total),
  };
}

/** Every delivery of the endpoint recorded as delivered (each exactly once, as the receiver counted them). */
async function settled(client, endpointId, expected) {
  for (let i = 0; ; i += 1) {
    const { rows } = await client.query(
      `SELECT count(*) FILTER (WHERE status = 'delivered')::int AS delivered, count(*)::int AS total FROM webhook_deliveries WHERE endpoint_id = $1`,
      [endpointId],
    );
    if (rows[0].delivered === expected && rows[0].total === expected) return;
    if (i >= 200) throw new Error(`${rows[0].delivered} of ${expected} deliveries recorded as delivered`);
    await sleep(50);
  }
}

/** Deliveries/s with one and with two workers: both warm up together, then two-worker rounds, then one-worker rounds. */
async function deliveries(env) {
  const project = createProject(env, 'Bench cluster webhooks');
  const receiver = await startReceiver();
  const client = new Client({ connectionString: env.DATABASE_URL });
  await client.connect();
  const workers = [];
  const facts = [];
  const rows = [];
  try {
    // One at a time, each kept as soon as it runs, so that a failed start leaves none behind.
    for (let i = 0; i < 2; i += 1) workers.push(await startWorker(env));
    facts.push(processFacts('worker, idle', workers[0], env));
    const endpointId = await insertEndpoint(client, env, project.id, receiver.url);
    let expected = 0;
    const run = async (count) => {
      expected += count;
      const measured = await metered(
        workers.filter((worker) => worker.exitCode === null).map((worker) => worker.pid),
        client,
        () => throughput(client, env, project.id, endpointId, receiver, count),
      ).catch(async (error) => {
        // Say where the missing ones are: pending (not yet tried), retrying (with the reason), failed.
        const { rows } = await client.query(
          `SELECT status, attempts, left(last_error, 120) AS last_error, count(*)::int AS n FROM webhook_deliveries
           WHERE endpoint_id = $1 AND status <> 'delivered' GROUP BY 1, 2, 3 ORDER BY n DESC LIMIT 5`,
          [endpointId],
        );
        throw new Error(`${error.message}; not delivered: ${JSON.stringify(rows)}`);
      });
      // The receiver answers before the worker records the result: wait for the last rows.
      await settled(client, endpointId, expected);
      return measured;
    };
    await run(Math.min(1_000, DELIVERIES));
    const samples = { 1: [], 2: [] };
    for (const count of [2, 1]) {
      if (count === 1) await stop(workers[1]);
      for (let round = 0; round < ROUNDS; round += 1) samples[count].push(await run(DELIVERIES));
      if (count === 2) facts.push(processFacts('worker, after deliveries', workers[0], env));
    }
    for (const count of [1, 2]) {
      const mine = samples[count];
      rows.push({
        measure: `webhook deliveries/s (${DELIVERIES} a round)`,
        processes: `${count} worker${count > 1 ? 's' : ''}`,
        'per second': Math.round(median(mine.map((sample) => sample.result.perSecond))),
        'cpu µs/req': Math.round(median(mine.map((sample) => (sample.cpu * 1e6) / DELIVERIES))),
        'PostgreSQL µs/req': Math.round(median(mine.map((sample) => (sample.postgresCpu * 1e6) / DELIVERIES))),
        'generator µs/req': Math.round(median(mine.map((sample) => (sample.generatorCpu * 1e6) / DELIVERIES))),
        'machine busy': `${Math.round(median(mine.map((sample) => sample.machineBusy)) * 100)}%`,
      });
    }
    return { rows, facts };
  } finally {
    await Promise.all(workers.map(stop));
    await client.end();
    await receiver.close();
  }
}

function load(port, route, context, connections, seconds) {
  return new Promise((resolve, reject) => {
    const requests = [{ method: route.method, path: route.path, setupRequest: (request) => route.request(request, context) }];
    autocannon({ url: `http://127.0.0.1:${port}`, connections, duration: seconds, requests }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
  });
}

/** One autocannon per API process at once, the connections split between them; requests and failures summed. */
async function spread(apis, route, context, seconds) {
  const results = await Promise.all(
    apis.map((_, index) => load(API_PORTS[index], route, context, Math.round(CONNECTIONS / apis.length), seconds)),
  );
  const expected = route.expectedStatus ?? 200;
  return {
    requests: results.reduce((sum, result) => sum + result.requests.total, 0),
    failures: results.reduce((sum, result) => sum + result.errors + result.timeouts + (expected === 200 ? result.non2xx : 0), 0),
    p99: Math.max(...results.map((result) => result.latency.p99)),
  };
}

async function apiRoutes(env, apis, client) {
  const rows = [];
  for (const route of ROUTES.filter((candidate) => ROUTE_NAMES.includes(candidate.name))) {
    const context = await route.prepare({ env, createProject: (name) => createProject(env, name), port: API_PORTS[0] });
    const setups = [apis.slice(0, 1), apis];
    if (WARMUP_SECONDS > 0) {
      for (const setup of setups) await spread(setup, route, { ...context, target: `warm${setup.length}`, round: -1 }, WARMUP_SECONDS);
    }
    const samples = { 1: [], 2: [] };
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const setup of round % 2 === 0 ? setups : [...setups].reverse()) {
        const roundContext = { ...context, target: `api${setup.length}`, round };
        const measured = await metered(
          setup.map((api) => api.pid),
          client,
          () => spread(setup, route, roundContext, SECONDS),
        );
        samples[setup.length].push(measured);
      }
    }
    for (const count of [1, 2]) {
      const mine = samples[count];
      rows.push({
        measure: route.name,
        processes: `${count} API`,
        'per second': Math.round(median(mine.map((sample) => sample.result.requests / SECONDS))),
        'p99 ms': median(mine.map((sample) => sample.result.p99)),
        'cpu µs/req': Math.round(median(mine.map((sample) => (sample.cpu * 1e6) / sample.result.requests))),
        'PostgreSQL µs/req': Math.round(median(mine.map((sample) => (sample.postgresCpu * 1e6) / sample.result.requests))),
        'generator µs/req': Math.round(median(mine.map((sample) => (sample.generatorCpu * 1e6) / sample.result.requests))),
        'machine busy': `${Math.round(median(mine.map((sample) => sample.machineBusy)) * 100)}%`,
        failures: mine.reduce((sum, sample) => sum + sample.result.failures, 0),
      });
    }
    process.stderr.write(`cluster ${route.name}: 1 API ${rows.at(-2)['per second']}/s, 2 APIs ${rows.at(-1)['per second']}/s\n`);
  }
  return rows;
}

/** The cluster section: `env` names a migrated (or empty) database, REDIS_URL and QUEUE_PREFIX. */
async function clusterTimings(env) {
  const loadBefore = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  const started = Date.now();
  const delivered = await deliveries(env);
  const apis = [];
  const client = new Client({ connectionString: env.DATABASE_URL });
  await client.connect();
  try {
    // One at a time: the first applies pending migrations.
    for (const port of API_PORTS) apis.push(await startApi(env, port));
    const facts = [processFacts('API, idle', apis[0], env), ...delivered.facts];
    const rows = [...delivered.rows, ...(await apiRoutes(env, apis, client))];
    facts.splice(1, 0, processFacts('API, after load', apis[0], env));
    const ratios = [];
    for (let i = 0; i < rows.length; i += 2) {
      ratios.push({ measure: rows[i].measure, '2 / 1': Number((rows[i + 1]['per second'] / rows[i]['per second']).toFixed(2)) });
    }
    const seconds = Math.round((Date.now() - started) / 1000);
    return { loadBefore, cores: require('node:os').availableParallelism(), seconds, rows, ratios, facts };
  } finally {
    await Promise.all(apis.map(stop));
    await client.end();
  }
}

function printCluster(cluster) {
  console.log(`cluster: ${cluster.cores} cores, load average before ${cluster.loadBefore}, ${cluster.seconds} s`);
  console.table(cluster.rows);
  console.table(cluster.ratios);
  console.table(cluster.facts);
}

async function main() {
  const database = `launch_bench_cluster_${process.pid}`;
  await admin(`CREATE DATABASE ${database}`);
  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl(database),
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    QUEUE_PREFIX: `benchc${process.pid}`,
    BROWSER_RATE_LIMIT: '100000000',
    PUBLIC_BASE_URL: process.env.PUBLIC_BASE_URL ?? 'http://localhost',
    ENCRYPTION_KEY: process.env.ENCRYPTION_KEY ?? randomBytes(32).toString('base64'),
  };
  try {
    const cluster = await clusterTimings(env);
    printCluster(cluster);
    if (process.env.BENCH_JSON) writeFileSync(process.env.BENCH_JSON, JSON.stringify({ cluster }, null, 2));
  } finally {
    await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await dropKeys(env);
  }
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}

module.exports = { clusterTimings, printCluster, runAlone: main };
