/**
 * What the benchmark scripts share: the admin database connection, sleeping, a process's CPU time,
 * waiting for a server's health check and creating a project through the CLI.
 */
const { execFileSync } = require('node:child_process');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { Client } = require('pg');

const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CLOCK_TICKS_PER_SECOND = 100;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The server of DATABASE_URL with another database name. */
function databaseUrl(name) {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** One statement on the admin database (CREATE DATABASE, DROP DATABASE). */
async function admin(sql) {
  const client = new Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** User + system CPU seconds of a process so far. */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

// The runtime flags of the service's start scripts (scripts/runtime-flags.js), given to every target alike.
const { RUNTIME_FLAGS } = require('../scripts/runtime-flags');
const NODE_FLAGS = [...RUNTIME_FLAGS, ...(process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean)];

async function waitForHealth(port, child) {
  for (let i = 0; i < 240; i += 1) {
    if (child.exitCode !== null) throw new Error(`target on port ${port} exited with ${child.exitCode}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/v1/_health`);
      if (res.status < 500) return;
    } catch {
      // not up yet
    }
    await sleep(250);
  }
  throw new Error(`target on port ${port} did not start`);
}

/** A Builder project through the build's CLI: its id and keys. */
function createProject(env, name) {
  const out = execFileSync(
    process.execPath,
    [join(__dirname, '..', 'dist', 'cli.js'), 'project:create', '--name', name, '--plan', 'builder', '--json'],
    {
      env: { ...env, LOG_LEVEL: 'error' },
    },
  );
  const created = JSON.parse(out.toString('utf8'));
  return { id: created.project_id, secretKey: created.secret_key, publishableKey: created.publishable_key };
}

/**
 * A run's queues and counters in the shared Redis: only the keys under its own QUEUE_PREFIX (the
 * rate-limit counters' keys start with a hash-tag brace: `{<prefix>:rl:…}:hits`).
 */
async function dropKeys(env) {
  const Redis = require('ioredis');
  const redis = new Redis(env.REDIS_URL);
  try {
    for (const pattern of [`${env.QUEUE_PREFIX}:*`, `{${env.QUEUE_PREFIX}:*`]) {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
        if (keys.length > 0) await redis.del(...keys);
        cursor = next;
      } while (cursor !== '0');
    }
  } finally {
    redis.disconnect();
  }
}

module.exports = { ADMIN_URL, NODE_FLAGS, sleep, databaseUrl, admin, cpuSeconds, waitForHealth, createProject, dropKeys };
