/**
 * The four targets of `npm run bench` and how each is started: the service in two configurations,
 * and the two baselines (bench/baseline-*.js).
 *
 * - `default`: the service as `npm start` runs it. Its job workers run in the same process, the
 *   browser limits keep their defaults (BROWSER_RATE_LIMIT unset: 120 a minute per address), and
 *   TRUST_PROXY=1 as behind one load balancer, so each simulated browser is its own address
 *   (X-Forwarded-For, from a pool of ADDRESS_POOL): the per-address limits never trip, but every
 *   call pays for counting them. It runs on a database and a Redis prefix of its own, because its
 *   workers would otherwise also run the jobs and outbox rows the other targets write (a signup's
 *   confirmation email): its CPU would pay for their requests.
 * - `scaled`: the API process of a scaled-out deployment (WORKERS=off, workers elsewhere), with the
 *   browser limit lifted and one client address, as the bench has always measured it.
 * - `bare nest` and `raw node` share the scaled target's database, data and keys.
 *
 * BENCH_CONFIGS (`default,scaled`) picks the service configurations measured; the scaled process
 * starts in any case, since the baselines' data is written through it.
 */
const { fork, spawn } = require('node:child_process');
const net = require('node:net');
const { join } = require('node:path');
const { NODE_FLAGS, waitForHealth } = require('./support');

// BENCH_PORT_BASE moves all four, for two benches on one machine.
const PORT_BASE = Number(process.env.BENCH_PORT_BASE ?? 3976);
const PORTS = { default: PORT_BASE, scaled: PORT_BASE + 1, 'bare nest': PORT_BASE + 2, 'raw node': PORT_BASE + 3 };
const LABELS = { default: 'service, default', scaled: 'service, scaled-out API', 'bare nest': 'bare nest', 'raw node': 'raw node' };
const CONFIGS = ['default', 'scaled'];
const BASELINES = ['bare nest', 'raw node'];
const ADDRESS_POOL = 10_000;
// One hop: the address a load balancer appends last is the client's.
const DEFAULT_TRUST_PROXY = '1';
const dist = join(__dirname, '..', 'dist');

/** The configurations BENCH_CONFIGS asks for, in a fixed order. */
function selectedConfigs() {
  const wanted = (process.env.BENCH_CONFIGS ?? CONFIGS.join(','))
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = wanted.filter((name) => !CONFIGS.includes(name));
  if (unknown.length > 0 || wanted.length === 0) throw new Error(`BENCH_CONFIGS takes ${CONFIGS.join(', ')}; got ${wanted.join(',')}`);
  return CONFIGS.filter((name) => wanted.includes(name));
}

/** Addresses 10.0.0.0 onwards: `index` picks one of ADDRESS_POOL, in turn. */
const poolAddress = (index) => {
  const n = index % ADDRESS_POOL;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
};

let nextAddress = 0;

/** Adds the next pool address as X-Forwarded-For: every request of the default target is another browser. */
function fromNextAddress(request) {
  nextAddress += 1;
  return { ...request, headers: { ...request.headers, 'x-forwarded-for': poolAddress(nextAddress) } };
}

/**
 * The default configuration's environment: `env` (the shared one) on another database and Redis
 * prefix, without the variables that would make it differ from `npm start`.
 */
function defaultEnv(env, databaseUrl, queuePrefix) {
  const own = { ...env, DATABASE_URL: databaseUrl, QUEUE_PREFIX: queuePrefix, TRUST_PROXY: DEFAULT_TRUST_PROXY };
  delete own.WORKERS;
  delete own.BROWSER_RATE_LIMIT;
  return { ...own, ...defaultEnvOverrides() };
}

/** BENCH_DEFAULT_ENV (a JSON object): variables set on this configuration alone, to tell what one of its settings costs. */
function defaultEnvOverrides() {
  const text = process.env.BENCH_DEFAULT_ENV;
  if (!text) return {};
  let overrides;
  try {
    overrides = JSON.parse(text);
  } catch {
    overrides = null;
  }
  const valid = overrides !== null && typeof overrides === 'object' && !Array.isArray(overrides);
  if (!valid || Object.values(overrides).some((value) => typeof value !== 'string')) {
    throw new Error(`BENCH_DEFAULT_ENV takes a JSON object of strings, such as '{"TRUST_PROXY":"false"}'; got ${text}`);
  }
  return overrides;
}

/** BENCH_CPU_PROFILE=<dir>: each target writes a V8 CPU profile to <dir>/<target> when it stops (open it in Chrome DevTools). */
function profileFlags(target) {
  const dir = process.env.BENCH_CPU_PROFILE;
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${join(dir, target.replace(' ', '-'))}`] : [];
}

/**
 * The service from the build, with `npm start`'s runtime flags. `preload`: a script node loads
 * first (--require), given an IPC channel to this process (bench/memory-probe.js).
 */
function startService(target, env, preload = null) {
  const flags = preload ? ['--require', preload] : [];
  return spawn(process.execPath, [...NODE_FLAGS, ...profileFlags(target), ...flags, join(dist, 'main.js')], {
    env: { ...env, PORT: String(PORTS[target]) },
    stdio: ['ignore', 'ignore', 'inherit', ...(preload ? ['ipc'] : [])],
  });
}

function startBaseline(target, env) {
  const script = target === 'bare nest' ? 'baseline-nest.js' : 'baseline-node.js';
  return fork(join(__dirname, script), {
    env: { ...env, PORT: String(PORTS[target]) },
    execArgv: [...NODE_FLAGS, ...profileFlags(target)],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
}

async function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** Refuses a port something already listens on: the health checks would reach that server instead. */
async function assertFree(port) {
  const taken = await new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
  if (taken) throw new Error(`port ${port} is in use (another bench?): set BENCH_PORT_BASE to move the targets' ports`);
}

/**
 * Starts every target: `envs.scaled` is the shared environment (also the baselines'), `envs.default`
 * the default configuration's. The services migrate their databases at start; the baselines only
 * need theirs to exist. Resolves once all answer their health check.
 */
async function startTargets(envs) {
  for (const port of Object.values(PORTS)) await assertFree(port);
  const children = {
    default: startService('default', envs.default),
    scaled: startService('scaled', { ...envs.scaled, WORKERS: 'off' }),
  };
  try {
    await Promise.all(CONFIGS.map((target) => waitForHealth(PORTS[target], children[target])));
    for (const target of BASELINES) children[target] = startBaseline(target, envs.scaled);
    await Promise.all(BASELINES.map((target) => waitForHealth(PORTS[target], children[target])));
  } catch (error) {
    await Promise.all(Object.values(children).map(stopChild));
    throw error;
  }
  return children;
}

module.exports = {
  PORTS,
  assertFree,
  LABELS,
  CONFIGS,
  BASELINES,
  ADDRESS_POOL,
  DEFAULT_TRUST_PROXY,
  selectedConfigs,
  poolAddress,
  fromNextAddress,
  defaultEnv,
  startService,
  startTargets,
  stopChild,
};
