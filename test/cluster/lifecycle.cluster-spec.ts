import { Agent, request } from 'node:http';
import { Client } from 'pg';
import type { Response } from 'supertest';
import { OpenApiValidator } from '../support/openapi-validator';
import { Cluster, ClusterProcess, startCluster } from '../support/cluster';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const range = (count: number) => Array.from({ length: count }, (_, index) => index + 1);

// src/infra/database/data-source.ts: the advisory lock that lets one process at a time migrate.
const MIGRATION_LOCK_ID = 7_311_402;

// The test server's connections are shared with parallel suites.
const SMALL_POOL = { DATABASE_POOL_SIZE: '5' };

const MODES = [
  ['PostgreSQL + Redis', true],
  ['PostgreSQL alone', false],
] as const;

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !(await check()); await sleep(25)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
  }
}

/** The JSON log lines of one process from `context`. */
function logLines(proc: ClusterProcess, context: string): { msg: string; migrations?: string[] }[] {
  return proc
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { context?: string; msg: string; migrations?: string[] })
    .filter((entry) => entry.context === context);
}

describe.each(MODES)('processes starting at once on an empty database (%s)', (_mode, redis) => {
  let cluster: Cluster | undefined;
  let holder: Client | undefined;

  afterAll(async () => {
    await holder?.end().catch(() => undefined);
    await cluster?.close();
  });

  it('run every migration exactly once, under the advisory lock, and then all serve', async () => {
    let release: Promise<number> = Promise.resolve(0);
    cluster = await startCluster({
      apis: 2,
      workers: 1,
      redis,
      database: 'empty',
      startTogether: true,
      env: { LOG_LEVEL: 'info', ...SMALL_POOL },
      // The test holds the migration lock until all three processes wait for it, so that they
      // certainly race for it rather than happen to start one after another.
      async beforeStart(url) {
        holder = new Client({ connectionString: url });
        // A failed start drops the database, and with it this session: the start's error is the one to report.
        holder.on('error', () => undefined);
        await holder.connect();
        await holder.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
        const lockHolder = holder;
        release = (async () => {
          let waiting = 0;
          await until(async () => {
            const [row] = (
              await lockHolder.query<{ waiting: number }>(
                `SELECT count(*)::int AS waiting FROM pg_locks
                  WHERE locktype = 'advisory' AND objid = $1 AND NOT granted
                    AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
                [MIGRATION_LOCK_ID],
              )
            ).rows;
            waiting = row.waiting;
            return waiting === 3;
          }, 'three processes waiting for the migration lock').catch(() => undefined);
          await lockHolder.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
          return waiting;
        })();
      },
    });
    expect(await release).toBe(3);

    const processes = [...cluster.apis, ...cluster.workers];
    const said = processes.map((proc) => logLines(proc, 'Database'));
    const migrators = said.filter((lines) => lines.some((line) => line.migrations));
    expect(migrators).toHaveLength(1);
    const ran = migrators[0].find((line) => line.migrations)?.migrations ?? [];
    expect(ran.length).toBeGreaterThan(10);
    expect(migrators[0].map((line) => line.msg)).toEqual([`ran ${ran.length} of ${ran.length} migrations: ${ran.join(', ')}`]);
    // The two others waited for the lock and found nothing left to do.
    expect(said.filter((lines) => !lines.some((line) => line.migrations)).map((lines) => lines.map((line) => line.msg))).toEqual([
      [`schema up to date (${ran.length} migrations)`],
      [`schema up to date (${ran.length} migrations)`],
    ]);
    const recorded = await cluster.sql<{ name: string }>('SELECT name FROM migrations ORDER BY id');
    expect(recorded.map((row) => row.name)).toEqual(ran);

    // Everyone serves the same schema: a project made by the CLI works on each API process.
    const { projectId, secretKey } = await cluster.createProject('scale');
    for (const index of [0, 1]) {
      const res = await cluster.apiAt(index).as(secretKey).get('/v1/setup-check').expect(200);
      expect(res.body.data.project_id).toBe(projectId);
      await cluster.apiAt(index).get('/v1/_health').expect(200);
    }
    expect(processes.map((proc) => proc.running)).toEqual([true, true, true]);
  });
});

interface Answer {
  url: string;
  status?: number;
  body?: { data?: { position?: number; email?: string } };
  /** A failure to get an answer (ECONNRESET, ECONNREFUSED…). */
  code?: string;
  invalid?: string;
}

/**
 * A load balancer in front of the API processes: round robin over the running ones, keep-alive
 * connections to each, and a refused connection (no byte of the request sent) tried once more on
 * the next process, as nginx's `proxy_next_upstream error` does. Nothing else is retried.
 */
class Balancer {
  retried = 0;
  private turn = 0;
  private readonly agents = new Map<string, Agent>();

  constructor(private readonly cluster: Cluster) {}

  async send(method: 'GET' | 'POST', path: string, token: string, body?: object): Promise<Answer> {
    const tried = new Set<string>();
    for (;;) {
      const live = this.cluster.apis.filter((proc) => proc.running && !tried.has(proc.url as string));
      if (live.length === 0) return { url: '', code: 'NO_UPSTREAM' };
      this.turn += 1;
      const url = live[this.turn % live.length].url as string;
      const answer = await this.call(url, method, path, token, body);
      if (answer.code !== 'ECONNREFUSED') return answer;
      tried.add(url);
      this.retried += 1;
    }
  }

  close(): void {
    for (const agent of this.agents.values()) agent.destroy();
  }

  private call(url: string, method: 'GET' | 'POST', path: string, token: string, body?: object): Promise<Answer> {
    let agent = this.agents.get(url);
    if (!agent) this.agents.set(url, (agent = new Agent({ keepAlive: true, maxSockets: 8 })));
    const payload = body ? JSON.stringify(body) : undefined;
    return new Promise((resolve) => {
      const req = request(
        `${url}${path}`,
        {
          method,
          agent,
          headers: { authorization: `Bearer ${token}`, ...(payload ? { 'content-type': 'application/json' } : {}) },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('error', (error: NodeJS.ErrnoException) => resolve({ url, status: res.statusCode, code: error.code ?? error.message }));
          res.on('end', () => {
            const answer: Answer = { url, status: res.statusCode, body: text ? (JSON.parse(text) as Answer['body']) : undefined };
            try {
              const checked = { status: res.statusCode, headers: res.headers, body: answer.body } as unknown as Response;
              OpenApiValidator.instance().check(method, path, checked);
            } catch (error) {
              answer.invalid = (error as Error).message;
            }
            resolve(answer);
          });
        },
      );
      req.on('error', (error: NodeJS.ErrnoException) => resolve({ url, code: error.code ?? error.message }));
      req.end(payload);
    });
  }
}

const CLIENTS = 8;

describe.each(MODES)('a rolling restart of both API processes under load (%s)', (_mode, redis) => {
  let cluster: Cluster;
  let balancer: Balancer | undefined;

  beforeAll(async () => {
    cluster = await startCluster({ apis: 2, workers: 1, redis, env: SMALL_POOL });
  });
  afterAll(async () => {
    balancer?.close();
    await cluster?.close();
  });

  it('answers every request 2xx while each API process is stopped with SIGTERM and replaced in turn', async () => {
    const { projectId, secretKey } = await cluster.createProject('scale');
    const lb = (balancer = new Balancer(cluster));
    const answers: { request: string; answer: Answer }[] = [];
    let running = true;
    const client = async (index: number) => {
      for (let n = 1; running; n += 1) {
        const email = `roll-${index}-${n}@x.io`;
        answers.push({ request: `signup ${email}`, answer: await lb.send('POST', '/v1/waitlist/signups', secretKey, { email }) });
        answers.push({ request: 'stats', answer: await lb.send('GET', '/v1/waitlist/stats', secretKey) });
      }
    };
    const load = Promise.all(range(CLIENTS).map(client));
    const servedBy = (proc: ClusterProcess) => answers.filter(({ answer }) => answer.url === proc.url && answer.status).length;

    const exitCodes: (number | string)[] = [];
    const replaced: ClusterProcess[] = [];
    try {
      await until(() => cluster.apis.every((proc) => servedBy(proc) >= 20), 'both processes serving');
      for (const index of [0, 1]) {
        const old = cluster.apis[index];
        replaced.push(old);
        exitCodes.push(await old.stop('SIGTERM'));
        const fresh = await cluster.restart(old);
        await until(() => servedBy(fresh) >= 20, `the replacement of API ${index} serving`);
      }
    } finally {
      running = false;
      await load;
    }

    expect(exitCodes).toEqual([0, 0]);
    const failed = answers.filter(({ answer }) => answer.code || answer.invalid || !answer.status || answer.status >= 300);
    expect(failed).toEqual([]);
    // All four processes took their share; none of the answers came from a process starting up.
    expect([...replaced, ...cluster.apis].map((proc) => servedBy(proc) > 0)).toEqual([true, true, true, true]);

    const signups = answers.filter(({ request: what }) => what.startsWith('signup '));
    expect(signups.every(({ answer }) => answer.status === 201)).toBe(true);
    const positions = signups.map(({ answer }) => answer.body?.data?.position as number).sort((a, b) => a - b);
    expect(positions).toEqual(range(signups.length));
    const rows = await cluster.sql<{ email: string; position: number }>(
      'SELECT email, position FROM waitlist_signups WHERE project_id = $1 ORDER BY position',
      [projectId],
    );
    expect(rows.map((row) => row.position)).toEqual(range(signups.length));
    expect(rows.map((row) => `signup ${row.email}`).sort()).toEqual(signups.map(({ request: what }) => what).sort());
    process.stdout.write(`rolling restart: ${answers.length} requests, ${lb.retried} refused connections retried on the other process\n`);
  });
});
