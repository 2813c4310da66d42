/**
 * `npm run bench`: autocannon against the service on the embedded defaults (or DATABASE_URL /
 * REDIS_URL when set), side by side with a bare Node.js server answering the same JSON — the ceiling
 * of this machine. Prints a table; a measurement, not a test.
 */
const autocannon = require('autocannon');
const { spawn } = require('node:child_process');
const { createServer } = require('node:http');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SERVICE_PORT = 3977;
const BASELINE_PORT = 3978;

function startBaseline() {
  const body = JSON.stringify({ data: { status: 'ok', database: 'ok' }, error: null });
  const server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json; charset=utf-8');
    res.end(body);
  });
  return new Promise((resolve) => server.listen(BASELINE_PORT, '127.0.0.1', () => resolve(server)));
}

function startService(dataDir) {
  const child = spawn(process.execPath, [join(__dirname, '..', 'dist', 'main.js')], {
    env: { ...process.env, PORT: String(SERVICE_PORT), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  return { child, output: () => output };
}

async function waitForHealth() {
  for (let i = 0; i < 120; i += 1) {
    try {
      const res = await fetch(`http://127.0.0.1:${SERVICE_PORT}/v1/_health`);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('the service did not start');
}

function run(title, url, headers = {}) {
  return new Promise((resolve, reject) => {
    autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION_SECONDS }, (error, result) => {
      if (error) return reject(error);
      resolve({
        title,
        requestsPerSecond: Math.round(result.requests.average),
        p50: result.latency.p50,
        p99: result.latency.p99,
        errors: result.errors + result.non2xx,
      });
    });
  });
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'launch-bench-'));
  const baseline = await startBaseline();
  const service = startService(dataDir);
  try {
    await waitForHealth();
    const key = /svc_live_[0-9A-Za-z]{32}/.exec(service.output())?.[0];
    const rows = [await run('baseline: bare node http', `http://127.0.0.1:${BASELINE_PORT}/`)];
    rows.push(await run('GET /v1/_health', `http://127.0.0.1:${SERVICE_PORT}/v1/_health`));
    if (key) {
      rows.push(await run('GET /v1/setup-check', `http://127.0.0.1:${SERVICE_PORT}/v1/setup-check`, { authorization: `Bearer ${key}` }));
    } else {
      process.stderr.write('No demo key printed (the database was not empty); skipping setup-check.\n');
    }
    const base = rows[0].requestsPerSecond;
    console.table(
      rows.map((row) => ({
        target: row.title,
        'req/s': row.requestsPerSecond,
        'vs baseline': `${((row.requestsPerSecond / base) * 100).toFixed(1)}%`,
        'p50 ms': row.p50,
        'p99 ms': row.p99,
        'errors/non-2xx': row.errors,
      })),
    );
  } finally {
    service.child.kill('SIGTERM');
    baseline.close();
    await new Promise((resolve) => service.child.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
