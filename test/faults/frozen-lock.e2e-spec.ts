import type { NestExpressApplication } from '@nestjs/platform-express';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { ProvisioningService } from '../../src/auth/provisioning.service';
import { createHttpApp } from '../../src/bootstrap';
import { AdjustableClock } from '../../src/common/clock/clock';
import { loadConfig } from '../../src/config/app-config';
import { IDEMPOTENCY_LOCK_SPACE } from '../../src/idempotency/idempotency-store.service';
import { ApiClient } from '../support/api-client';
import { TcpProxy, startTcpProxy } from '../support/tcp-proxy';
import { TestDatabase, createTestDatabase } from '../support/test-database';

// The bound under test: a session that sits frozen inside its transaction is ended after this.
const IDLE_IN_TRANSACTION_MS = 2_000;
// Far above the bound, so that neither the waiting signups' lock wait nor the frozen process's own
// client-side deadline (statement timeout + 1 s, which drops its socket) is what frees the lock.
const STATEMENT_TIMEOUT_MS = 15_000;
// Each answer from PostgreSQL reaches the frozen process this much later, so its transaction sits
// idle, holding the counter's row lock, long enough for the test to see it and pause the proxy.
const LATENCY_MS = 300;
const SIGNUPS = 6;

function target(url: string): { host: string; port: number } {
  const parsed = new URL(url);
  return { host: parsed.hostname, port: Number(parsed.port || 5432) };
}

async function startApp(databaseUrl: string, encryptionKey: string): Promise<NestExpressApplication> {
  const config = loadConfig({
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATABASE_URL: databaseUrl,
    QUEUE_PREFIX: `t_${randomBytes(6).toString('hex')}`,
    WORKERS: 'off',
    PUBLIC_BASE_URL: 'https://launch.test',
    ENCRYPTION_KEY: encryptionKey,
    DATABASE_CONNECT_TIMEOUT_MS: '2000',
    DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
    DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: String(IDLE_IN_TRANSACTION_MS),
    REDIS_COMMAND_TIMEOUT_MS: '500',
  });
  return createHttpApp(config, { clock: new AdjustableClock() });
}

/** Polls until a session other than `watcher`'s is inside a transaction whose last statement took the waitlist counter. */
async function waitForCounterHolder(watcher: Client, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const { rows } = await watcher.query<{ holders: number }>(
      `SELECT count(*)::int AS holders FROM pg_stat_activity
       WHERE datname = current_database() AND pid <> pg_backend_pid() AND xact_start IS NOT NULL
         AND query LIKE '%waitlist_counters%'`,
    );
    if (rows[0].holders > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`no session took the waitlist counter within ${ms} ms`);
}

/** Polls until a session other than `watcher`'s holds an Idempotency-Key claim (an advisory lock in its space). */
async function waitForClaimHolder(watcher: Client, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const { rows } = await watcher.query<{ holders: number }>(
      `SELECT count(*)::int AS holders FROM pg_locks
       WHERE locktype = 'advisory' AND granted AND classid = $1 AND pid <> pg_backend_pid()`,
      [IDEMPOTENCY_LOCK_SPACE],
    );
    if (rows[0].holders > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`no session claimed an Idempotency-Key within ${ms} ms`);
}

describe('a process frozen inside a lock span (DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS)', () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let frozen: NestExpressApplication;
  let healthy: NestExpressApplication;
  let watcher: Client;

  beforeAll(async () => {
    database = await createTestDatabase();
    proxy = await startTcpProxy(target(database.url));
    const encryptionKey = randomBytes(32).toString('base64');
    frozen = await startApp(proxy.rewrite(database.url), encryptionKey);
    healthy = await startApp(database.url, encryptionKey);
    watcher = new Client({ connectionString: database.url });
    await watcher.connect();
  }, 120_000);

  afterAll(async () => {
    proxy?.resume();
    await watcher?.end();
    await frozen?.close();
    await healthy?.close();
    await proxy?.close();
    await database?.drop();
  });

  it("lets other signups through within the bound after one process freezes holding the project's position counter", async () => {
    const { secretKey } = await healthy.get(ProvisioningService).createProjectWithKeys({ name: 'Frozen lock', plan: 'indie' });
    const frozenApi = new ApiClient(frozen.getHttpServer()).unchecked().as(secretKey);
    const healthyApi = new ApiClient(healthy.getHttpServer()).as(secretKey);

    // The first signup goes through the proxy; its network stops once it holds the counter row.
    proxy.setLatency(LATENCY_MS);
    const stuck = frozenApi
      .post('/v1/waitlist/signups')
      .send({ email: 'frozen@x.io' })
      .then((res) => res.status);
    await waitForCounterHolder(watcher, 10_000);
    proxy.pause();

    const started = performance.now();
    const statuses = await Promise.all(
      Array.from({ length: SIGNUPS }, (_, index) =>
        healthyApi
          .post('/v1/waitlist/signups')
          .send({ email: `person${index}@x.io` })
          .then((res) => res.status),
      ),
    );
    const elapsed = performance.now() - started;

    expect(statuses).toEqual(Array.from({ length: SIGNUPS }, () => 201));
    // The server ended the frozen session after IDLE_IN_TRANSACTION_MS; the rest is the signups' own work.
    expect(elapsed).toBeLessThan(IDLE_IN_TRANSACTION_MS + 2_000);
    // The frozen transaction rolled back and gave its position back: the line is gap-free.
    const { rows } = await watcher.query<{ email: string; position: number }>(
      'SELECT email, position FROM waitlist_signups ORDER BY position',
    );
    expect(rows.map((row) => row.position)).toEqual(Array.from({ length: SIGNUPS }, (_, index) => index + 1));
    expect(rows.map((row) => row.email)).not.toContain('frozen@x.io');

    // The frozen process learns of it once its network is back, and answers (not 201).
    proxy.resume();
    expect(await stuck).toBeGreaterThanOrEqual(500);
  }, 60_000);

  it('lets the retry of an Idempotency-Key through within the bound after the process that claimed it freezes', async () => {
    const { secretKey } = await healthy.get(ProvisioningService).createProjectWithKeys({ name: 'Frozen claim', plan: 'indie' });
    const key = `frozen-claim-${randomBytes(4).toString('hex')}`;
    const body = { email: 'claimed@x.io' };
    const frozenApi = new ApiClient(frozen.getHttpServer()).unchecked().as(secretKey);
    const healthyApi = new ApiClient(healthy.getHttpServer()).as(secretKey);

    proxy.setLatency(LATENCY_MS);
    const stuck = frozenApi
      .post('/v1/waitlist/signups')
      .set('Idempotency-Key', key)
      .send(body)
      .then((res) => res.status);
    await waitForClaimHolder(watcher, 10_000);
    proxy.pause();

    // The client's retry, as a well-behaved one does it: honour Retry-After (shortened here) until
    // the claim is free, then the request runs once.
    const started = performance.now();
    const conflicts: string[] = [];
    let answer: { status: number; body: { data: { position: number } } } | null = null;
    while (performance.now() - started < IDLE_IN_TRANSACTION_MS + 5_000) {
      const res = await healthyApi.post('/v1/waitlist/signups').set('Idempotency-Key', key).send(body);
      if (res.status !== 409) {
        answer = res;
        break;
      }
      conflicts.push(res.body.error.code);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const elapsed = performance.now() - started;

    expect(answer?.status).toBe(201);
    // While the frozen session held the claim, the retries were told so (409, Retry-After).
    expect(conflicts.length).toBeGreaterThan(0);
    expect(new Set(conflicts)).toEqual(new Set(['IDEMPOTENCY_CONFLICT']));
    expect(elapsed).toBeLessThan(IDLE_IN_TRANSACTION_MS + 2_000);
    const { rows } = await watcher.query<{ position: number }>(`SELECT position FROM waitlist_signups WHERE email = 'claimed@x.io'`);
    expect(rows).toEqual([{ position: answer?.body.data.position }]);

    // A second retry replays the stored answer; the frozen process fails once its network is back.
    const replay = await healthyApi.post('/v1/waitlist/signups').set('Idempotency-Key', key).send(body).expect(201);
    expect(replay.body).toEqual(answer?.body);
    proxy.resume();
    expect(await stuck).toBeGreaterThanOrEqual(500);
  }, 60_000);
});
