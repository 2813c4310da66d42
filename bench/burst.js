/**
 * `npm run bench:burst`: a burst of concurrent bell polls against the built service (dist/) as a
 * child process on real PostgreSQL. BURST_REQUESTS (2000) requests to GET /v1/notifications/unread/count
 * leave at once, each on a keep-alive connection of its own, for as many different users; the
 * report says how many succeeded, how many were refused with 503 and after how long, and p50/p99.
 *
 * Environment: BURST_REQUESTS (2000), BURST_ROUNDS (3), BURST_PATH (/v1/notifications/unread/count),
 * DATABASE_URL (postgres://postgres@127.0.0.1:5432/postgres: a database of its own is created and
 * dropped there), REDIS_URL (redis://127.0.0.1:6379), and any variable of the service to try
 * (DATABASE_POOL_SIZE, DATABASE_CONNECT_TIMEOUT_MS, …), passed on to it.
 */
const { spawn, execFileSync } = require('node:child_process');
const { createHmac, randomBytes } = require('node:crypto');
const http = require('node:http');
const { join } = require('node:path');
const { Client } = require('pg');
const { NODE_FLAGS, admin, cpuSeconds, databaseUrl, sleep } = require('./support');

const REQUESTS = Number(process.env.BURST_REQUESTS ?? 2000);
const ROUNDS = Number(process.env.BURST_ROUNDS ?? 3);
const PATH = process.env.BURST_PATH ?? '/v1/notifications/unread/count';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const DIST = join(__dirname, '..', 'dist');
// The service's own variables given to this script go on to the server.
const PASSED_ON = /^(DATABASE_(POOL_SIZE|CONNECT_TIMEOUT_MS|STATEMENT_TIMEOUT_MS|QUEUE_WAIT_MS)|LOG_LEVEL|NODE_OPTIONS)$/;

async function startServer(env, port) {
  const passed = Object.fromEntries(Object.entries(process.env).filter(([name]) => PASSED_ON.test(name)));
  const child = spawn(process.execPath, [...NODE_FLAGS, join(DIST, 'main.js')], {
    env: { PATH: process.env.PATH, PORT: String(port), LOG_LEVEL: 'error', LOG_FORMAT: 'json', ...env, ...passed },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  for (let i = 0; i < 240; i += 1) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/v1/_health`)).status === 200) return child;
    } catch {
      // not up yet
    }
    await sleep(250);
  }
  throw new Error('the server did not start');
}

/** Ten notifications for each of the users, a third of them read: a bell with something to count. */
async function seedBell(url, projectId, users) {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO notifications (id, project_id, kind, user_id, title, body, icon, actions, status, visible_at, recipient_count, created_at)
       SELECT 'ntf_' || upper(substr(md5($1 || g), 1, 26)), $1, 'user', 'user_' || (g % $2), 'Your export is ready',
              'The PDF is ready.', 'info', '[]', 'visible', now() - g * interval '1 minute', 1, now() - g * interval '1 minute'
       FROM generate_series(1, $2 * 10) g`,
      [projectId, users],
    );
    await client.query(
      `INSERT INTO notification_recipients (notification_id, user_id, project_id, visible_at)
       SELECT id, user_id, project_id, visible_at FROM notifications WHERE project_id = $1`,
      [projectId],
    );
    await client.query('ANALYZE notifications; ANALYZE notification_recipients');
  } finally {
    await client.end();
  }
}

function get(agent, port, path, headers) {
  const started = process.hrtime.bigint();
  return new Promise((resolve) => {
    const req = http.request({ agent, host: '127.0.0.1', port, path, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode,
          retryAfter: res.headers['retry-after'] ?? null,
          message: res.statusCode === 200 ? null : JSON.parse(body).error?.message,
          ms: Number(process.hrtime.bigint() - started) / 1e6,
        }),
      );
    });
    req.on('error', (error) => resolve({ status: error.code ?? error.message, ms: Number(process.hrtime.bigint() - started) / 1e6 }));
    req.end();
  });
}

function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]);
}

function summarise(results, wallMs) {
  const all = results.map((result) => result.ms).sort((a, b) => a - b);
  const ok = results.filter((result) => result.status === 200);
  const refused = results.filter((result) => result.status === 503);
  const refusedMs = refused.map((result) => result.ms).sort((a, b) => a - b);
  const okMs = ok.map((result) => result.ms).sort((a, b) => a - b);
  const other = {};
  for (const result of results) if (result.status !== 200 && result.status !== 503) other[result.status] = (other[result.status] ?? 0) + 1;
  return {
    requests: results.length,
    ok: ok.length,
    503: refused.length,
    other,
    wall_ms: Math.round(wallMs),
    p50_ms: percentile(all, 50),
    p99_ms: percentile(all, 99),
    ok_p50_ms: percentile(okMs, 50),
    ok_p99_ms: percentile(okMs, 99),
    '503_p50_ms': percentile(refusedMs, 50),
    '503_max_ms': refusedMs.length ? Math.round(refusedMs.at(-1)) : null,
    retry_after: [...new Set(refused.map((result) => result.retryAfter))].sort(),
    messages: [...new Set(refused.map((result) => result.message))],
  };
}

async function main() {
  const name = `burst_${randomBytes(5).toString('hex')}`;
  await admin(`CREATE DATABASE ${name}`);
  const url = databaseUrl(name);
  const port = 3981;
  const env = { DATABASE_URL: url, REDIS_URL, QUEUE_PREFIX: name, BROWSER_RATE_LIMIT: '100000000' };
  let child;
  try {
    child = await startServer(env, port);
    const project = JSON.parse(
      execFileSync(process.execPath, [join(DIST, 'cli.js'), 'project:create', '--name', 'Burst', '--plan', 'scale', '--json'], {
        env: { PATH: process.env.PATH, LOG_LEVEL: 'warn', DATABASE_URL: url },
      }).toString(),
    );
    const secret = await fetch(`http://127.0.0.1:${port}/v1/notifications/signing-secret`, {
      method: 'POST',
      headers: { authorization: `Bearer ${project.secret_key}`, 'content-type': 'application/json' },
      body: '{}',
    }).then((res) => res.json());
    await seedBell(url, project.project_id, REQUESTS);
    const headersOf = (user) => ({
      authorization: `Bearer ${project.publishable_key}`,
      'x-service-user-hash': createHmac('sha256', secret.data.signing_secret).update(`user_${user}`).digest('hex'),
    });
    for (let round = 0; round < ROUNDS; round += 1) {
      const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
      const cpuBefore = cpuSeconds(child.pid);
      const started = process.hrtime.bigint();
      const results = await Promise.all(
        Array.from({ length: REQUESTS }, (_, user) => get(agent, port, `${PATH}?user_id=user_${user}`, headersOf(user))),
      );
      const wall = Number(process.hrtime.bigint() - started) / 1e6;
      agent.destroy();
      const cpuMsPerRequest = ((cpuSeconds(child.pid) - cpuBefore) * 1000) / REQUESTS;
      console.log(
        JSON.stringify({ round, path: PATH, ...summarise(results, wall), server_cpu_ms_per_request: Number(cpuMsPerRequest.toFixed(2)) }),
      );
      await sleep(1000);
    }
  } finally {
    child?.kill('SIGTERM');
    await new Promise((resolve) => (child && child.exitCode === null ? child.once('exit', resolve) : resolve()));
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
