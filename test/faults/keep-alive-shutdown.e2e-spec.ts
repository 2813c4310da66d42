import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import { ServerProcess, runCli, startServerProcess } from '../support/server-process';
import { TestDatabase, createTestDatabase } from '../support/test-database';

interface Outcome {
  /** The request went out on a keep-alive connection that had carried an answer before. */
  reused: boolean;
  status?: number;
  /** The answer's Connection header. */
  connection?: string;
  projectId?: string;
  code?: string;
}

/** One GET through the keep-alive agent; a failure is recorded with its code, never thrown. */
function setupCheck(agent: Agent, url: string, key: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = request(`${url}/v1/setup-check`, { agent, headers: { authorization: `Bearer ${key}` } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        const parsed = JSON.parse(body) as { data?: { project_id?: string } };
        resolve({
          reused: req.reusedSocket,
          status: res.statusCode,
          connection: res.headers.connection,
          projectId: parsed.data?.project_id,
        });
      });
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ reused: req.reusedSocket, code: error.code ?? error.message }));
    req.end();
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// A child-process test may wait for the run's background build (global setup).
const CHILD_PROCESS_TEST_TIMEOUT_MS = 180_000;
const CLIENTS = 16;
// Half the clients pause up to this long between requests, so that some connections are idle
// when the drain begins, as a browser's between polls.
const THINK_MS = 20;
// Each client stops at its first failure; this bounds a client that never sees one.
const MAX_REQUESTS_PER_CLIENT = 2_000;

describe('graceful shutdown of keep-alive connections (SIGTERM)', () => {
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
    'answers every request sent on an open keep-alive connection, the last ones with Connection: close, and resets none',
    async () => {
      const created = await runCli({ DATABASE_URL: db.url }, 'project:create', '--name', 'Keep-alive', '--plan', 'scale');
      server = await startServerProcess({
        DATABASE_URL: db.url,
        QUEUE_PREFIX: `t_${randomBytes(6).toString('hex')}`,
        ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
      });
      const { url } = server;
      const key = String(created.secret_key);
      // One keep-alive connection per client, so that each client's last answer is its connection's last.
      const agents = Array.from({ length: CLIENTS }, () => new Agent({ keepAlive: true, maxSockets: 1 }));

      // Clients that send request after request on their keep-alive connection until one fails:
      // across the SIGTERM, each connection has a request running, is about to carry one, or idles.
      const outcomes: Outcome[][] = Array.from({ length: CLIENTS }, () => []);
      const client = async (seen: Outcome[], index: number) => {
        for (let count = 0; count < MAX_REQUESTS_PER_CLIENT; count += 1) {
          const outcome = await setupCheck(agents[index], url, key);
          seen.push(outcome);
          if (outcome.code) return;
          if (index % 2 === 1) await sleep(Math.random() * THINK_MS);
        }
      };
      const clients = Promise.all(outcomes.map(client));
      // SIGTERM once every client has had a few answers on its keep-alive connection.
      while (outcomes.some((seen) => seen.filter((outcome) => outcome.reused).length < 3)) await sleep(10);
      server.child.kill('SIGTERM');
      await clients;
      for (const agent of agents) agent.destroy();
      expect(await server.exited).toBe(0);

      const all = outcomes.flat();
      // No request was reset, on a kept connection or a new one: the only failure is a refused connection.
      expect(all.filter((outcome) => outcome.code && outcome.code !== 'ECONNREFUSED')).toEqual([]);
      // Every request the server took was answered in full.
      const answered = all.filter((outcome) => !outcome.code);
      expect(answered.every((outcome) => outcome.status === 200 && outcome.projectId === created.project_id)).toBe(true);
      // Each client's last answer asked it to close, and its next connection was refused.
      for (const seen of outcomes) {
        const last = seen.filter((outcome) => !outcome.code).at(-1);
        expect({ connection: last?.connection, then: seen.at(-1)?.code }).toEqual({ connection: 'close', then: 'ECONNREFUSED' });
      }
    },
    CHILD_PROCESS_TEST_TIMEOUT_MS,
  );
});
