import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { guardExtendedProtocol } from './pglite-protocol-guard';

export interface EmbeddedPostgres {
  /** A postgres:// URL on a loopback port; TypeORM, pg and BullMQ connect to it unchanged. */
  readonly url: string;
  /** Writes the data files as a tarball that `template` can start from. Call it while no query runs. */
  saveTo(path: string): Promise<void>;
  stop(): Promise<void>;
}

interface EmbeddedPostgresOptions {
  /** A folder for the data files, or 'memory' for a throwaway database (tests). */
  readonly dataDir: string | 'memory';
  /**
   * In-memory only: start from a copy of a tarball written by `saveTo` instead of an empty cluster.
   * Skipping initdb saves about a second per start; the test suites start dozens of these.
   */
  readonly template?: string;
  readonly maxConnections?: number;
  /**
   * Records the database's loopback address in the lock file, so that the operator CLI can work
   * through this process while it runs (the API server does; short-lived holders do not).
   */
  readonly share?: boolean;
}

const LOCK_FILE = 'embedded.lock';

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** What the lock file records: the process holding the data folder, and where it serves it. */
interface EmbeddedLock {
  readonly pid: number;
  /** Set when the holder shares its database (the API server): other local processes may connect here. */
  readonly url?: string;
}

/** The live process holding the embedded database in `dataDir`, or null when none does. */
export function embeddedLockHolder(dataDir: string): EmbeddedLock | null {
  let lock: EmbeddedLock;
  try {
    lock = JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8')) as EmbeddedLock;
  } catch {
    return null;
  }
  const pid = Number(lock.pid);
  if (!Number.isInteger(pid) || pid === process.pid || !processIsAlive(pid)) return null;
  return { pid, ...(typeof lock.url === 'string' ? { url: lock.url } : {}) };
}

export class EmbeddedDatabaseInUse extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: EmbeddedLock,
  ) {
    super(
      `The embedded database in ${dataDir} is in use by process ${holder.pid}. Stop that process first (Ctrl-C in its terminal, or kill -INT ${holder.pid}), or set DATABASE_URL to share a PostgreSQL server.`,
    );
    this.name = 'EmbeddedDatabaseInUse';
  }
}

/**
 * One process at a time may open the data folder; a second PGlite on the same files corrupts them.
 * The lock is removed when the database closes, and at the latest when the process exits.
 */
function claimDataDir(dataDir: string): { publish(url: string): void; release(): void } {
  mkdirSync(dataDir, { recursive: true });
  const lockPath = join(dataDir, LOCK_FILE);
  const holder = embeddedLockHolder(dataDir);
  if (holder) throw new EmbeddedDatabaseInUse(dataDir, holder);
  writeFileSync(lockPath, JSON.stringify({ pid: process.pid }));
  const release = () => rmSync(lockPath, { force: true });
  process.once('exit', release);
  return {
    publish: (url) => writeFileSync(lockPath, JSON.stringify({ pid: process.pid, url })),
    release() {
      process.removeListener('exit', release);
      release();
    },
  };
}

const servedUrls = new Set<string>();

/**
 * True for the address of an embedded database this process serves. Its connections share one
 * session, so LISTEN/NOTIFY does not work across them; the one process holding it needs none.
 */
export function isEmbeddedDatabaseUrl(url: string): boolean {
  return servedUrls.has(url);
}

/**
 * Runs PostgreSQL in-process (PGlite, PostgreSQL compiled to WebAssembly) and serves it on a
 * loopback socket, so the embedded mode uses the same driver, migrations and SQL as production.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  const inMemory = options.dataDir === 'memory';
  if (options.template && !inMemory) throw new Error('A template can only seed an in-memory embedded database');
  const loadDataDir = options.template ? new Blob([await readFile(options.template)]) : undefined;
  const lock = inMemory ? null : claimDataDir(options.dataDir);
  const db = await PGlite.create({ dataDir: inMemory ? 'memory://' : join(options.dataDir, 'pg'), loadDataDir });
  const server = new PGLiteSocketServer({
    db: guardExtendedProtocol(db),
    host: '127.0.0.1',
    port: 0,
    maxConnections: options.maxConnections ?? 64,
  });
  await server.start();
  const url = `postgres://postgres@${server.getServerConn()}/postgres`;
  servedUrls.add(url);
  if (options.share) lock?.publish(url);
  return {
    url,
    async saveTo(path) {
      const tarball = await db.dumpDataDir('none');
      await writeFile(path, Buffer.from(await tarball.arrayBuffer()));
    },
    async stop() {
      servedUrls.delete(url);
      await server.stop();
      await db.close();
      lock?.release();
    },
  };
}
