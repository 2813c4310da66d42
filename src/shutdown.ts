import { INestApplication, INestApplicationContext, Logger } from '@nestjs/common';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { EmbeddedPostgres } from './infra/database/embedded-postgres';
import { QueueService } from './infra/queue/queue.service';
import { Sweeper } from './infra/queue/sweeper';
import { RateLimiter } from './infra/rate-limit/rate-limiter';

// While draining, idle keep-alive connections are closed this often (a response that finishes
// leaves its connection idle).
const IDLE_SWEEP_MS = 50;

const logger = new Logger('Shutdown');

/** Resolves with true when `work` settles within `ms`, false when the time ran out first. */
async function within(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const settled = work.then(
    () => true,
    () => true,
  );
  const result = await Promise.race([settled, timeout]);
  clearTimeout(timer);
  return result;
}

/**
 * Stops accepting connections and waits for every request in flight to be answered, at most
 * `graceMs`. A request that arrives on an open keep-alive connection meanwhile is still served,
 * with `Connection: close`; idle connections are closed. After the grace period the remaining
 * connections are cut.
 */
export async function drainHttp(server: Server, graceMs: number): Promise<void> {
  const closeAfterAnswer = (_req: IncomingMessage, res: ServerResponse) => res.setHeader('Connection', 'close');
  server.on('request', closeAfterAnswer);
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
  try {
    if (!(await within(closed, graceMs))) {
      logger.warn(`requests still running after SHUTDOWN_GRACE_MS (${graceMs} ms); closing their connections`);
      server.closeAllConnections();
      await closed;
    }
  } finally {
    clearInterval(sweep);
  }
}

function httpServerOf(app: INestApplication | INestApplicationContext): Server | null {
  return 'getHttpServer' in app ? (app.getHttpServer() as Server) : null;
}

/**
 * The shutdown order, in one place: stop accepting and answer every request in flight (they still
 * need the rate limiter's Redis and the database); stop the sweeper; let running jobs finish and
 * close the queues; close the rate limiter's Redis; then the rest of the application, the
 * database last (DatabaseModule's shutdown hook); then the embedded database server.
 */
export async function shutDown(
  app: INestApplication | INestApplicationContext,
  embedded: EmbeddedPostgres | null,
  graceMs: number,
): Promise<void> {
  const started = Date.now();
  const remaining = () => Math.max(0, graceMs - (Date.now() - started));
  const server = httpServerOf(app);
  if (server?.listening) await drainHttp(server, graceMs);
  await app.get(Sweeper).stop();
  if (!(await within(app.get(QueueService).close(), remaining()))) {
    // Their leases run out and another worker takes the rows over (due-rows.ts).
    logger.warn('jobs still running after SHUTDOWN_GRACE_MS; leaving them to their leases');
  }
  await app.get(RateLimiter).close();
  await app.close();
  await embedded?.stop();
}

/** SIGTERM and SIGINT shut down in order once (a second signal is ignored), then exit 0. */
export function closeOnSignals(app: INestApplication | INestApplicationContext, embedded: EmbeddedPostgres | null, graceMs: number): void {
  let closing = false;
  const close = (signal: string) => {
    if (closing) return;
    closing = true;
    logger.log(`${signal} received: finishing requests in flight, then closing`);
    shutDown(app, embedded, graceMs).then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`Shutdown failed: ${(error as Error).stack ?? String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => close('SIGINT'));
  process.on('SIGTERM', () => close('SIGTERM'));
}
