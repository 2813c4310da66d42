import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { Client } from 'pg';
import { ServerProcess, runCli, startServerProcess } from '../support/server-process';
import { TestDatabase, createTestDatabase } from '../support/test-database';

interface Outcome {
  email: string;
  status?: number;
  code?: string;
}

/** One signup on a connection of its own, so each request is either accepted and answered, or refused. */
function signUp(url: string, key: string, email: string): Promise<Outcome> {
  const outcome: Outcome = { email };
  return new Promise((resolve) => {
    const body = JSON.stringify({ email });
    const req = request(
      `${url}/v1/waitlist/signups`,
      {
        method: 'POST',
        agent: false,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ ...outcome, status: res.statusCode }));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ ...outcome, code: error.code ?? error.message }));
    req.end(body);
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// A child-process test may wait for the run's background build (global setup); on a busy 2-core
// machine that alone can take a minute.
const CHILD_PROCESS_TEST_TIMEOUT_MS = 180_000;

describe('graceful shutdown (SIGTERM)', () => {
  let db: TestDatabase;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await db.drop();
  });

  it(
    'answers every publishable-key signup in flight with 201, refuses later ones, and exits 0',
    async () => {
      const env: Record<string, string> = {
        DATABASE_URL: db.url,
        QUEUE_PREFIX: `t_${randomBytes(6).toString('hex')}`,
        BROWSER_RATE_LIMIT: '100000',
        ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
      };
      const created = await runCli({ DATABASE_URL: db.url }, 'project:create', '--name', 'Shutdown', '--plan', 'scale');
      server = await startServerProcess(env);
      const { url } = server;

      // A steady burst: a new signup every 5 ms for 600 ms, SIGTERM a third of the way in.
      const pending: Promise<Outcome>[] = [];
      for (let index = 0; index < 120; index += 1) {
        if (index === 40) {
          server.child.kill('SIGTERM');
        }
        pending.push(signUp(url, String(created.publishable_key), `burst${index}@x.io`));
        await sleep(5);
      }
      const outcomes = await Promise.all(pending);
      expect(await server.exited).toBe(0);

      // Never an error answer. A connection the server never took is refused, or reset when it was
      // still waiting in the kernel's accept queue as the listener closed (Linux resets those).
      const unexpected = outcomes.filter(
        (outcome) => outcome.status !== 201 && !['ECONNREFUSED', 'ECONNRESET'].includes(outcome.code ?? ''),
      );
      expect(unexpected).toEqual([]);
      const answered = outcomes.filter((outcome) => outcome.status === 201);
      expect(answered.length).toBeGreaterThan(0);
      expect(outcomes.at(-1)?.code).toBe('ECONNREFUSED');

      // Every 201 is in the database, and nothing else is.
      const client = new Client({ connectionString: db.url });
      await client.connect();
      try {
        const rows = await client.query<{ email: string }>('SELECT email FROM waitlist_signups WHERE project_id = $1', [
          created.project_id,
        ]);
        expect(rows.rows.map((row) => row.email).sort()).toEqual(answered.map((outcome) => outcome.email).sort());
      } finally {
        await client.end();
      }
    },
    CHILD_PROCESS_TEST_TIMEOUT_MS,
  );
});
