import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { heartbeatPath } from '../../src/infra/queue/worker-heartbeat';
import { ApiClient } from './api-client';
import { deleteRedisKeys } from './redis-keys';
import { RUNTIME_FLAGS, ensureBuild, freePort, runCli } from './server-process';
import { TcpProxy, startTcpProxy } from './tcp-proxy';
import { createTestDatabase, databaseUrl, withAdminClient } from './test-database';

/**
 * Several API processes (`WORKERS=off`) and job workers (`dist/worker.js`) from the build of this
 * run, on one PostgreSQL and, unless `redis: false`, one Redis, as a customer runs them behind a
 * load balancer. Every process reaches PostgreSQL and Redis through a TCP proxy the test can pause or
 * cut; each process can be signalled, killed and started again. The cluster's keys in Redis carry
 * its own QUEUE_PREFIX, so "Redis lost everything" is `flushRedis()` and leaves parallel suites alone.
 */
const ROOT = join(__dirname, '..', '..');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const READY_WITHIN_MS = 60_000;

export type Role = 'api' | 'worker';

export interface ClusterOptions {
  apis?: number;
  workers?: number;
  /** false: PostgreSQL alone (queues on their PostgreSQL backend, limits in the database). */
  redis?: boolean;
  /** 'empty': a database with no schema, which the first process to start migrates. */
  database?: 'migrated' | 'empty';
  /** Extra environment for every process (PUBLIC_BASE_URL, deadlines, limits…). */
  env?: Record<string, string>;
  /** Every process at once, as an orchestrator starts them (by default API 0 first, which migrates an empty database). */
  startTogether?: boolean;
  /** Runs once the database exists, before any process starts (with its direct URL). */
  beforeStart?: (databaseUrl: string) => Promise<void>;
}

export interface ClusterProcess {
  readonly role: Role;
  /** Position in `apis` or `workers`; kept by `restart`. */
  readonly index: number;
  readonly child: ChildProcess;
  /** API processes only: http://127.0.0.1:<port>. */
  readonly url: string | null;
  output(): string;
  readonly exited: Promise<number | string>;
  /** Sends the signal (SIGTERM unless told) and waits for the exit code or the signal's name. */
  stop(signal?: NodeJS.Signals): Promise<number | string>;
  readonly running: boolean;
}

export interface Cluster {
  readonly apis: ClusterProcess[];
  readonly workers: ClusterProcess[];
  /** Direct (unproxied) URL of the cluster's database, for the test's own queries. */
  readonly databaseUrl: string;
  readonly databaseProxy: TcpProxy;
  readonly redisProxy: TcpProxy | null;
  readonly queuePrefix: string;
  /** The environment every process starts with (proxied URLs, prefix, key). */
  readonly env: Readonly<Record<string, string>>;
  /** The next running API process in turn (round robin), as an OpenAPI-checked client. */
  api(): ApiClient;
  /** API process `index` as a client. */
  apiAt(index: number): ApiClient;
  /** The base URL of the next running API process in turn, for plain fetch. */
  nextUrl(): string;
  /** One more process of this role. */
  add(role: Role, env?: Record<string, string>): Promise<ClusterProcess>;
  /** Starts the process at the same position again (after a stop or kill) and waits until it is ready. */
  restart(process: ClusterProcess, env?: Record<string, string>): Promise<ClusterProcess>;
  /** Runs one statement on the cluster's database (directly, not through the proxy). */
  sql<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** Deletes every key of this cluster in Redis, as a Redis that restarted without persistence. */
  flushRedis(): Promise<number>;
  /** `project:create` through the CLI of the build. */
  createProject(plan?: string, name?: string): Promise<{ projectId: string; secretKey: string; publishableKey: string }>;
  /** Everything every process wrote, labelled, for a failure message. */
  logs(): string;
  close(): Promise<void>;
}

function hostAndPort(url: string, fallbackPort: number): { host: string; port: number } {
  const parsed = new URL(url);
  return { host: parsed.hostname, port: Number(parsed.port || fallbackPort) };
}

export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const build = await ensureBuild();
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) throw new Error('the cluster runs on a PostgreSQL server: set DATABASE_URL');
  const withRedis = options.redis !== false;
  const redisUrl = process.env.REDIS_URL;
  if (withRedis && !redisUrl) throw new Error('REDIS_URL is not set (or start the cluster with redis: false)');

  let dbUrl: string;
  let dropDatabase: () => Promise<void>;
  if (options.database === 'empty') {
    const name = `t_${randomBytes(6).toString('hex')}`;
    await withAdminClient(baseUrl, (client) => client.query(`CREATE DATABASE ${name}`));
    dbUrl = databaseUrl(baseUrl, name);
    dropDatabase = () =>
      withAdminClient(baseUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined);
  } else {
    const db = await createTestDatabase();
    dbUrl = db.url;
    dropDatabase = () => db.drop();
  }
  const databaseProxy = await startTcpProxy(hostAndPort(dbUrl, 5432));
  const redisProxy = withRedis ? await startTcpProxy(hostAndPort(redisUrl as string, 6379)) : null;
  const queuePrefix = `t_${randomBytes(6).toString('hex')}`;
  const dataRoot = mkdtempSync(join(tmpdir(), 'launch-cluster-'));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    DATABASE_URL: databaseProxy.rewrite(dbUrl),
    ...(redisProxy ? { REDIS_URL: redisProxy.rewrite(redisUrl as string) } : {}),
    QUEUE_PREFIX: queuePrefix,
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    PUBLIC_BASE_URL: 'https://launch.test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
    LOG_FORMAT: 'json',
    ...options.env,
  };

  const apis: ClusterProcess[] = [];
  const workers: ClusterProcess[] = [];
  const everyProcess: ClusterProcess[] = [];
  let turn = 0;
  let serial = 0;

  const launch = async (role: Role, index: number, extra: Record<string, string> = {}): Promise<ClusterProcess> => {
    serial += 1;
    const dataDir = join(dataRoot, `${role}-${index}-${serial}`);
    const port = role === 'api' ? await freePort() : 0;
    const script = role === 'api' ? 'main.js' : 'worker.js';
    const child = spawn(process.execPath, [...RUNTIME_FLAGS, join(build, script)], {
      cwd: ROOT,
      env: { ...env, DATA_DIR: dataDir, ...(role === 'api' ? { PORT: String(port), WORKERS: 'off' } : {}), ...extra },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
    const url = role === 'api' ? `http://127.0.0.1:${port}` : null;
    const proc: ClusterProcess = {
      role,
      index,
      child,
      url,
      output: () => output,
      exited,
      get running() {
        return child.exitCode === null && child.signalCode === null;
      },
      async stop(signal: NodeJS.Signals = 'SIGTERM') {
        if (child.exitCode === null && child.signalCode === null) child.kill(signal);
        return exited;
      },
    };
    everyProcess.push(proc);
    // Ready: an API answers its health check; a worker has written its first heartbeat (after its
    // queues and schedules started, with the database answering).
    for (let waited = 0; ; waited += 100) {
      if (!proc.running) throw new Error(`${role} ${index} exited with ${child.exitCode ?? child.signalCode}:\n${output}`);
      if (waited > READY_WITHIN_MS) {
        child.kill('SIGKILL');
        throw new Error(`${role} ${index} was not ready within ${READY_WITHIN_MS / 1000} s:\n${output}`);
      }
      if (role === 'worker' ? existsSync(heartbeatPath(dataDir)) : await healthy(url as string)) break;
      await sleep(100);
    }
    (role === 'api' ? apis : workers)[index] = proc;
    return proc;
  };

  const closeAll = async () => {
    await Promise.all(everyProcess.map((proc) => proc.stop('SIGKILL')));
    databaseProxy.resume();
    redisProxy?.resume();
    await databaseProxy.close();
    await redisProxy?.close();
    if (withRedis) await deleteRedisKeys(redisUrl as string, queuePrefix);
    await dropDatabase();
    rmSync(dataRoot, { recursive: true, force: true });
  };

  try {
    await options.beforeStart?.(dbUrl);
    // The first process migrates an empty database; the others then start side by side.
    const apiCount = options.apis ?? 2;
    const workerCount = options.workers ?? 2;
    const first = options.startTogether ? 0 : Math.min(apiCount, 1);
    for (let i = 0; i < first; i += 1) await launch('api', i);
    await Promise.all([
      ...Array.from({ length: apiCount - first }, (_, i) => launch('api', i + first)),
      ...Array.from({ length: workerCount }, (_, i) => launch('worker', i)),
    ]);
  } catch (error) {
    await closeAll();
    throw error;
  }

  const running = () => apis.filter((proc) => proc.running);
  const nextUrl = () => {
    const live = running();
    if (live.length === 0) throw new Error('no API process is running');
    turn += 1;
    return live[turn % live.length].url as string;
  };

  return {
    apis,
    workers,
    databaseUrl: dbUrl,
    databaseProxy,
    redisProxy,
    queuePrefix,
    env,
    api: () => new ApiClient(nextUrl()),
    apiAt: (index) => new ApiClient(apis[index].url as string),
    nextUrl,
    add: (role, extra) => launch(role, (role === 'api' ? apis : workers).length, extra),
    async restart(proc, extra) {
      await proc.stop('SIGKILL');
      return launch(proc.role, proc.index, extra);
    },
    async sql<T>(text: string, params: unknown[] = []) {
      const client = new Client({ connectionString: dbUrl });
      await client.connect();
      try {
        return (await client.query(text, params)).rows as T[];
      } finally {
        await client.end();
      }
    },
    flushRedis: () => (withRedis ? deleteRedisKeys(redisUrl as string, queuePrefix) : Promise.resolve(0)),
    async createProject(plan = 'scale', name = 'Cluster') {
      const created = await runCli(
        { DATABASE_URL: dbUrl, ENCRYPTION_KEY: env.ENCRYPTION_KEY },
        'project:create',
        '--name',
        name,
        '--plan',
        plan,
      );
      return {
        projectId: created.project_id as string,
        secretKey: created.secret_key as string,
        publishableKey: created.publishable_key as string,
      };
    },
    logs: () => everyProcess.map((proc) => `--- ${proc.role} ${proc.index}\n${proc.output()}`).join('\n'),
    close: closeAll,
  };
}

async function healthy(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/v1/_health`)).status === 200;
  } catch {
    return false;
  }
}
