import { INestApplication, INestApplicationContext, Logger } from '@nestjs/common';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import type { EmbeddedPostgres } from './infra/database/embedded-postgres';
import { QueueService } from './infra/queue/queue.service';
import { Sweeper } from './infra/queue/sweeper.service';
import { RateLimiter } from './infra/rate-limit/rate-limiter.service';

// While draining, a keep-alive connection with no request running is closed once it has been idle
// this long (since its last answer, or since the drain began): a request its client sent as the
// drain began (on the wire, or unread behind a busy event loop) arrives meanwhile and is answered
// with `Connection: close`, where closing the connection at once would reset it.
const IDLE_QUIET_MS = 1_000;
// How often idle connections are looked at while draining.
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

/** One event-loop turn, its poll phase included (setTimeout, then setImmediate). */
async function eventLoopTurn(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 0));
  await new Promise((resolve) => setImmediate(resolve));
}

interface HttpDrain {
  /**
   * Stops accepting connections and waits for every request in flight to be answered, at most
   * `graceMs`; then cuts what is left.
   */
  drain(graceMs: number): Promise<void>;
}

/**
 * Tracks the requests in flight on `server`, so that a drain can end every connection without
 * resetting a request. In order: the listener closes first, after one event-loop turn has taken
 * the connections the kernel already accepted (Linux resets those still queued when a listener
 * closes); until then answers keep their connections, since a `Connection: close` would send the
 * client to open a new one into that queue. From then on every answer carries `Connection: close`
 * (Node closes the connection after it), the client's next connection is refused, and a connection
 * left idle is closed after IDLE_QUIET_MS. Node's own `server.close()` would close idle connections
 * at once, resetting a request the client is sending on one right then.
 */
function trackRequests(server: Server): HttpDrain {
  let draining = false;
  let drainStartedAt = 0;
  const sockets = new Set<Socket>();
  const inFlight = new Set<ServerResponse>();
  // While draining: when each connection last finished an answer.
  const lastAnswered = new WeakMap<Socket, number>();
  // One listener function for every response (no closure per request): it reads the response off `this`.
  function answered(this: ServerResponse): void {
    inFlight.delete(this);
    if (draining) lastAnswered.set(this.req.socket, Date.now());
  }
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  // Before the application's listener, which may answer at once (then headers can no longer change).
  server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
    inFlight.add(res);
    if (draining) res.setHeader('Connection', 'close');
    res.on('close', answered);
  });
  const closeQuietConnections = () => {
    const busy = new Set<Socket>();
    for (const res of inFlight) busy.add(res.req.socket);
    const now = Date.now();
    for (const socket of sockets) {
      if (busy.has(socket)) continue;
      const idleSince = Math.max(drainStartedAt, lastAnswered.get(socket) ?? 0);
      if (now - idleSince >= IDLE_QUIET_MS) socket.destroy();
    }
  };
  return {
    async drain(graceMs: number) {
      logger.log(`draining: ${inFlight.size} requests in flight on ${sockets.size} connections`);
      // libuv accepts until the kernel's queue is empty in the poll phase; the listener closes
      // right after that turn.
      await eventLoopTurn();
      const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
      draining = true;
      drainStartedAt = Date.now();
      for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
      const sweep = setInterval(closeQuietConnections, IDLE_SWEEP_MS);
      try {
        if (!(await within(closed, graceMs))) {
          logger.warn(`requests still running after SHUTDOWN_GRACE_MS (${graceMs} ms); closing their connections`);
          for (const socket of sockets) socket.destroy();
          await closed;
        }
      } finally {
        clearInterval(sweep);
      }
      logger.log('every request answered; no connection left');
    },
  };
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
async function shutDown(
  app: INestApplication | INestApplicationContext,
  embedded: EmbeddedPostgres | null,
  graceMs: number,
  http: HttpDrain | null,
): Promise<void> {
  const started = Date.now();
  const remaining = () => Math.max(0, graceMs - (Date.now() - started));
  if (http) await http.drain(graceMs);
  await app.get(Sweeper).stop();
  if (!(await within(app.get(QueueService).close(), remaining()))) {
    // Their leases run out and another worker takes the rows over (due-rows.ts).
    logger.warn('jobs still running after SHUTDOWN_GRACE_MS; leaving them to their leases');
  }
  await app.get(RateLimiter).close();
  await app.close();
  await embedded?.stop();
}

// The same signal again within this time is the same key press, delivered twice.
const ONE_PRESS_MS = 200;

/**
 * Signals and the order of closing for one process, from its first line on. A signal that arrives
 * while the process starts is kept until the current step ends (killing PGlite mid-write could
 * damage the data files); later signals only say that the process is still closing. The embedded
 * database is always closed, and its lock file released, before the process exits.
 */
export class ProcessLifecycle {
  private app: INestApplication | INestApplicationContext | null = null;
  private http: HttpDrain | null = null;
  private embedded: EmbeddedPostgres | null = null;
  private graceMs = 0;
  private signal: string | null = null;
  private signalAt = 0;
  private stopping: Promise<never> | null = null;

  constructor() {
    process.on('SIGINT', () => this.onSignal('SIGINT'));
    process.on('SIGTERM', () => this.onSignal('SIGTERM'));
  }

  /** The embedded database this process started: closed last. */
  holdEmbedded(embedded: EmbeddedPostgres | null): void {
    this.embedded = embedded;
  }

  /** Call before listening: from here on a signal drains requests and jobs first. */
  holdApp(app: INestApplication | INestApplicationContext, graceMs: number): void {
    const server = httpServerOf(app);
    this.app = app;
    this.http = server ? trackRequests(server) : null;
    this.graceMs = graceMs;
  }

  /** Between start-up steps: when a signal came meanwhile, closes what has started and exits 0. */
  async checkpoint(): Promise<void> {
    if (this.signal) await this.stop(0);
  }

  /** Closes in order (shutDown), then exits with `code`; the embedded database is closed whatever fails. */
  stop(code: number): Promise<never> {
    this.stopping ??= this.close().then(
      () => process.exit(code),
      (error: unknown) => {
        logger.error({ msg: 'shutdown failed', err: error });
        return process.exit(1);
      },
    );
    return this.stopping;
  }

  private async close(): Promise<void> {
    try {
      if (this.app) await shutDown(this.app, null, this.graceMs, this.http);
    } finally {
      await this.embedded?.stop();
    }
    if (this.app || this.embedded) logger.log(this.embedded ? 'closed, the embedded database last' : 'closed');
  }

  private onSignal(signal: string): void {
    if (this.signal) {
      // One Ctrl-C under `npm start` arrives twice: the terminal signals the whole foreground group
      // and npm passes its own copy on to this process, a few milliseconds apart.
      if (signal === this.signal && performance.now() - this.signalAt < ONE_PRESS_MS) return;
      logger.warn(
        `${signal} again: still closing${this.embedded ? ' (the embedded database closes last)' : ''}; the process exits by itself`,
      );
      return;
    }
    this.signal = signal;
    this.signalAt = performance.now();
    if (!this.app) {
      logger.log(`${signal} received while starting: stopping once the current step is done`);
      return;
    }
    logger.log(`${signal} received: finishing requests in flight, then closing`);
    void this.stop(0);
  }
}
