import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import { Client } from 'pg';
import { userHashOf } from '../../src/auth/user-hash';
import { ServerProcess, runCli, startServerProcess } from '../support/server-process';
import { TcpProxy, startTcpProxy } from '../support/tcp-proxy';
import { TestDatabase, createTestDatabase } from '../support/test-database';

interface Outcome {
  status: number;
  ms: number;
  retryAfter: string | null;
  unreadCount?: number;
  code?: string;
  message?: string;
}

// One pooled connection to a database 100 ms away: the pool serves about ten statements a second
// whatever the machine's load, so that a burst of a few dozen polls (little CPU work, even on two
// busy cores) takes longer than the connect deadline to serve. pg-pool's own line let the polls at
// its back wait all of that deadline, then answered 503.
const POOL_SIZE = 1;
const LATENCY_MS = 100;
const CONNECT_TIMEOUT_MS = 2_000;
const QUEUE_WAIT_MS = 2_000;
const BURST = 28;
// "At once": well under a second, and half the connect deadline a pool-timeout 503 waits.
const REFUSAL_MAX_MS = 1_000;
// A child-process test may wait for the run's background build (global setup).
const CHILD_PROCESS_TEST_TIMEOUT_MS = 180_000;

/** One bell poll on the agent's keep-alive connections; its outcome and how long it took. */
function pollUnreadCount(agent: Agent, url: string, headers: Record<string, string>, userId: string): Promise<Outcome> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(`${url}/v1/notifications/unread/count?user_id=${userId}`, { agent, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        const body = JSON.parse(text) as { data: { unread_count: number } | null; error: { code: string; message: string } | null };
        resolve({
          status: res.statusCode ?? 0,
          ms: performance.now() - started,
          retryAfter: (res.headers['retry-after'] as string | undefined) ?? null,
          unreadCount: body.data?.unread_count,
          code: body.error?.code,
          message: body.error?.message,
        });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** One broadcast, shown now: every person's bell has one unread notification. */
async function seedBroadcast(url: string, projectId: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO notifications (id, project_id, kind, title, body, icon, actions, status, visible_at, recipient_count, created_at)
       VALUES ($1, $2, 'broadcast', 'New: faster exports', 'Exports now finish in seconds.', 'info', '[]', 'visible', now(), 0, now())`,
      [`ntf_${randomBytes(13).toString('hex').toUpperCase().slice(0, 26)}`, projectId],
    );
  } finally {
    await client.end();
  }
}

describe('a burst of bell polls on a small database pool', () => {
  let db: TestDatabase;
  let proxy: TcpProxy;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    db = await createTestDatabase();
    const { hostname, port } = new URL(db.url);
    proxy = await startTcpProxy({ host: hostname, port: Number(port) }, { latencyMs: LATENCY_MS });
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await proxy.close();
    await db.drop();
  });

  it(
    'lines the burst up and answers it, with no 503 that waited for the connect deadline',
    async () => {
      const created = await runCli({ DATABASE_URL: db.url }, 'project:create', '--name', 'Burst', '--plan', 'scale');
      await seedBroadcast(db.url, String(created.project_id));
      server = await startServerProcess({
        DATABASE_URL: proxy.rewrite(db.url),
        QUEUE_PREFIX: `t_${randomBytes(6).toString('hex')}`,
        WORKERS: 'off',
        BROWSER_RATE_LIMIT: '100000',
        DATABASE_POOL_SIZE: String(POOL_SIZE),
        DATABASE_CONNECT_TIMEOUT_MS: String(CONNECT_TIMEOUT_MS),
        DATABASE_QUEUE_WAIT_MS: String(QUEUE_WAIT_MS),
        ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
      });
      const { url } = server;
      const secret = await fetch(`${url}/v1/notifications/signing-secret`, {
        method: 'POST',
        headers: { authorization: `Bearer ${String(created.secret_key)}`, 'content-type': 'application/json' },
        body: '{}',
      }).then(async (res) => ((await res.json()) as { data: { signing_secret: string } }).data.signing_secret);
      const headersOf = (userId: string) => ({
        authorization: `Bearer ${String(created.publishable_key)}`,
        'x-service-user-hash': userHashOf(userId, secret),
      });
      // One person per poll: a person's unchanged count is answered from the process's copy
      // (bell-state.cache.ts), and the burst must reach the database.
      const users = Array.from({ length: BURST }, (_, index) => `user_${index}`);
      const agent = new Agent({ keepAlive: true, maxSockets: Infinity });

      // Each person's first poll of the hour also records them: done before the burst, one at a time.
      for (const userId of users) {
        expect((await pollUnreadCount(agent, url, headersOf(userId), userId)).unreadCount).toBe(1);
      }
      // A second broadcast, sent through the API: every process drops its copies of the project's bells.
      const sent = await fetch(`${url}/v1/notifications`, {
        method: 'POST',
        headers: { authorization: `Bearer ${String(created.secret_key)}`, 'content-type': 'application/json' },
        body: JSON.stringify({ audience: 'all', title: 'Second', body: 'Another one.' }),
      });
      expect(sent.status).toBe(201);
      const outcomes = await Promise.all(users.map((userId) => pollUnreadCount(agent, url, headersOf(userId), userId)));
      agent.destroy();

      const answered = outcomes.filter((outcome) => outcome.status === 200);
      const refused = outcomes.filter((outcome) => outcome.status === 503);
      expect(answered.length + refused.length).toBe(BURST);
      expect(answered.every((outcome) => outcome.unreadCount === 2)).toBe(true);
      expect(answered.length).toBeGreaterThan(BURST / 2);
      // Polls at the back waited past the connect deadline, and were answered all the same.
      expect(Math.max(...answered.map((outcome) => outcome.ms))).toBeGreaterThan(CONNECT_TIMEOUT_MS);
      // No poll waited for the pool's deadline to end in a 503: a refusal (when the line stood
      // still too long) came at once, said the database was busy, and when to come back.
      const late = refused.filter(
        (outcome) =>
          outcome.ms >= REFUSAL_MAX_MS ||
          outcome.code !== 'SERVICE_UNAVAILABLE' ||
          !/^The database is busy/.test(outcome.message ?? '') ||
          !['1', '2', '3', '4', '5'].includes(outcome.retryAfter ?? ''),
      );
      expect(late.map((outcome) => ({ ...outcome, ms: Math.round(outcome.ms) }))).toEqual([]);
    },
    CHILD_PROCESS_TEST_TIMEOUT_MS,
  );
});
