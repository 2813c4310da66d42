/**
 * Webhook delivery (issue 11 item 9), the service only: deliveries per second from ONE worker
 * process to a loopback receiver (keep-alive; target ≥ 1,000/s), and the time from an API call
 * (a waitlist signup, which records `waitlist.signup.created`) to the receiver's 2xx, p50 and p99.
 *
 * Throughput: N deliveries are written straight to the database (events and pending rows, as the
 * outbox listener writes them) and their jobs added in bulk, then the clock runs until the receiver
 * has seen all N. Latency: sequential signups, each timed from the request to its arrival.
 */
const { spawn } = require('node:child_process');
const { createServer } = require('node:http');
const { join } = require('node:path');
const { Client } = require('pg');
const { Queue } = require('bullmq');

const DELIVERIES = Number(process.env.BENCH_WEBHOOK_DELIVERIES ?? 10_000);
const LATENCY_CALLS = Number(process.env.BENCH_WEBHOOK_CALLS ?? 200);
const dist = join(__dirname, '..', 'dist');
// As the service adds the job (queue.service.ts). A job that failed and stayed in the failed set would
// keep its id, and the sweeper, finding it there, would never add the row's job again.
const JOB_OPTIONS = {
  attempts: require(join(dist, 'infra', 'queue', 'job-catalog')).JOBS['webhooks.deliver'].attempts,
  backoff: { type: 'exponential', delay: 1_000 },
  removeOnComplete: true,
  removeOnFail: true,
};

function startReceiver() {
  const arrivals = new Map();
  let count = 0;
  let onCount = null;
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      count += 1;
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        if (body.data && body.data.email) arrivals.set(body.data.email, process.hrtime.bigint());
      } catch {
        // counted all the same
      }
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      if (onCount) onCount(count);
    });
  });
  server.keepAliveTimeout = 60_000;
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}/hooks`,
        arrivals,
        count: () => count,
        waitFor: (wanted, timeoutMs) =>
          new Promise((done, fail) => {
            if (count >= wanted) return done();
            const timer = setTimeout(() => fail(new Error(`receiver saw ${count} of ${wanted}`)), timeoutMs);
            onCount = (seen) => {
              if (seen >= wanted) {
                clearTimeout(timer);
                onCount = null;
                done();
              }
            };
          }),
        close: () => {
          server.closeAllConnections();
          return new Promise((done) => server.close(done));
        },
      }),
    ),
  );
}

async function insertEndpoint(client, env, projectId, url) {
  const { SecretBox } = require(join(dist, 'common', 'crypto', 'secret-box'));
  const box = new SecretBox(Buffer.from(env.ENCRYPTION_KEY, 'base64'));
  const id = `we_BENCH${String(Date.now()).slice(-10).padStart(10, '0')}ABCDEFGH`.slice(0, 29);
  await client.query(
    `INSERT INTO webhook_endpoints (id, project_id, url_ciphertext, url_masked, events, format, status, consecutive_failures,
       secret_ciphertext, created_at, updated_at)
     VALUES ($1, $2, $3, 'http://127.0.0.1/…', '["*"]', 'json', 'enabled', 0, $4, now(), now())`,
    [id, projectId, box.seal(url), box.seal('whsec_bench_secret')],
  );
  return id;
}

function startWorker(env) {
  const child = spawn(process.execPath, [join(dist, 'worker.js')], {
    env: { ...env, WORKERS: 'on', LOG_LEVEL: 'error', WEBHOOK_ALLOW_INSECURE_URLS: 'true' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return child;
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function latency(port, key, receiver, prefix, calls, waitMs) {
  const times = [];
  for (let i = 0; i < calls; i += 1) {
    const email = `${prefix}${i}@bench.test`;
    const started = process.hrtime.bigint();
    const res = await fetch(`http://127.0.0.1:${port}/v1/waitlist/signups`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email }),
    });
    if (res.status !== 201) throw new Error(`POST /v1/waitlist/signups answered ${res.status}: ${await res.text()}`);
    const deadline = Date.now() + waitMs;
    while (!receiver.arrivals.has(email)) {
      if (Date.now() > deadline) throw new Error(`no delivery for ${email}`);
      await new Promise((resolve) => setImmediate(resolve));
    }
    times.push(Number(receiver.arrivals.get(email) - started) / 1e6);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

/** `count` deliveries written as the outbox writes them, their jobs added in bulk, timed until the receiver has them all. */
async function throughput(client, env, projectId, endpointId, receiver, count = DELIVERIES) {
  const base = receiver.count();
  const batch = `b${Date.now()}`;
  await client.query(
    `INSERT INTO events (id, project_id, type, data, created_at)
     SELECT 'evt_' || upper(substr(md5($1 || g), 1, 26)), $2, 'waitlist.signups.invited',
            jsonb_build_object('count', 0, 'invited', '[]'::jsonb, 'invited_at', now()), now()
       FROM generate_series(1, $3) g`,
    [batch, projectId, count],
  );
  const { rows } = await client.query(
    `INSERT INTO webhook_deliveries (id, project_id, endpoint_id, event_id, event_type, status, attempts, next_attempt_at, created_at)
     SELECT 'whd_' || upper(substr(md5($1 || g), 1, 26)), $2, $3, 'evt_' || upper(substr(md5($1 || g), 1, 26)),
            'waitlist.signups.invited', 'pending', 0, now(), now()
       FROM generate_series(1, $4) g
     RETURNING id`,
    [batch, projectId, endpointId, count],
  );
  const url = new URL(env.REDIS_URL);
  const queue = new Queue('webhooks', { connection: { host: url.hostname, port: Number(url.port || 6379) }, prefix: env.QUEUE_PREFIX });
  const started = process.hrtime.bigint();
  try {
    for (let i = 0; i < rows.length; i += 1_000) {
      await queue.addBulk(
        rows
          .slice(i, i + 1_000)
          .map(({ id }) => ({ name: 'webhooks.deliver', data: { id }, opts: { jobId: `webhooks.deliver-${id}`, ...JOB_OPTIONS } })),
      );
    }
    await receiver.waitFor(base + count, 120_000);
  } finally {
    await queue.close();
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const delivered = await client.query(
    `SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'delivered'`,
    [endpointId],
  );
  return { perSecond: count / seconds, seconds, delivered: delivered.rows[0].n };
}

async function webhookTimings({ port, env, createProject }) {
  const project = createProject('Bench webhooks');
  const receiver = await startReceiver();
  const client = new Client({ connectionString: env.DATABASE_URL });
  await client.connect();
  const worker = startWorker(env);
  try {
    const endpointId = await insertEndpoint(client, env, project.id, receiver.url);
    // Warm-up: the worker is ready once a delivery arrives.
    await latency(port, project.secretKey, receiver, 'warm', 1, 60_000);
    const { p50, p99 } = await latency(port, project.secretKey, receiver, 'latency', LATENCY_CALLS, 10_000);
    const rate = await throughput(client, env, project.id, endpointId, receiver);
    return [
      { measure: `deliveries per second, one worker (${DELIVERIES})`, value: Math.round(rate.perSecond) },
      { measure: 'API call → receiver 2xx, p50 (ms)', value: Number(p50.toFixed(1)) },
      { measure: 'API call → receiver 2xx, p99 (ms)', value: Number(p99.toFixed(1)) },
    ];
  } finally {
    worker.kill('SIGTERM');
    if (worker.exitCode === null) await new Promise((resolve) => worker.once('exit', resolve));
    await client.end();
    await receiver.close();
  }
}

module.exports = { webhookTimings, startReceiver, insertEndpoint, throughput };
