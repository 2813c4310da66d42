import { Logger } from '@nestjs/common';
import { Pool, type PoolClient, type PoolConfig } from 'pg';
import { performance } from 'node:perf_hooks';
import { BACKEND_BUSY } from '../../common/http/backend-outage';

interface AdmissionOptions {
  /**
   * While the caller at the front of the line has waited longer than this, newcomers are refused
   * at once. Null: no line of our own; pg-pool's (every caller waits up to `connectionTimeoutMillis`).
   */
  readonly queueWaitMs?: number | null;
}

type ConnectCallback = (error: Error | undefined, client: PoolClient | undefined, done: (release?: unknown) => void) => void;

interface Waiter {
  readonly callback: ConnectCallback;
  readonly joinedAt: number;
}

// A refused burst is logged as one line at most this often, not one line per request.
const REFUSALS_REPORT_MS = 5_000;
// Retry-After is spread over these seconds, so that refused callers come back in smaller waves.
const RETRY_AFTER_MIN_SECONDS = 1;
const RETRY_AFTER_MAX_SECONDS = 5;

const NOOP = () => undefined;

/**
 * A caller refused a place in the line for a connection (AdmissionPool): the request ran no
 * statement on it. Answered 503 SERVICE_UNAVAILABLE with this Retry-After (common/http/backend-outage.ts).
 */
export class DatabaseBusyError extends Error {
  readonly code = BACKEND_BUSY;

  constructor(
    readonly retryAfterSeconds: number,
    waiting: number,
    frontWaitedMs: number,
  ) {
    super(`The database is busy: ${waiting} callers wait for a connection, the first for ${frontWaitedMs} ms.`);
    this.name = 'DatabaseBusyError';
  }
}

/**
 * pg's pool behind a line of our own: first come, first served, with admission control at its
 * entrance. pg-pool alone lines callers up too, but gives each one `connectionTimeoutMillis`
 * (DATABASE_CONNECT_TIMEOUT_MS) from the moment it asks: under a burst longer than the pool serves
 * within that time, callers at the back waited all of it only to answer 503. Here:
 * - Once in line, a caller waits for its turn, however long the line is, as long as it moves. Only
 *   when no connection has come back for `connectionTimeoutMillis` (the database stopped
 *   answering) is everyone in line failed, with a timeout the error rules answer 503.
 * - A newcomer is refused at once (DatabaseBusyError) while the caller at the front has waited
 *   longer than `queueWaitMs` (DATABASE_QUEUE_WAIT_MS): the line is standing, the pool does not
 *   keep up, and the newcomer would wait at least as long. What a caller has really waited is the
 *   signal, not a forecast: while a burst is still being read the event loop is busy and a forecast
 *   from the pace of the moment overstates the wait two to three times (measured on 2 cores), so a
 *   burst that arrives at once is lined up whole and served in order; a flow the pool cannot keep
 *   up with is refused at the entrance, where it costs nothing.
 * pg-pool then only hands out connections that are free or may be opened, so its own deadline
 * counts the opening of a connection only.
 * On the normal path (a connection free, nobody waiting) this costs a comparison per connect and
 * one per release.
 */
export class AdmissionPool extends Pool {
  private readonly logger = new Logger('Database');
  private readonly queueWaitMs: number | null;
  private readonly line: Waiter[] = [];
  // Connections handed out through the line, those being opened included; at most `max`.
  private handedOut = 0;
  private lastProgressAt = 0;
  private stallTimer: NodeJS.Timeout | null = null;
  // Bumped whenever the stall watch stops, so that a check already scheduled ends there.
  private watchGeneration = 0;
  private refusedSinceReport = 0;
  private longestLineSinceReport = 0;
  private reportTimer: NodeJS.Timeout | null = null;

  constructor(config: PoolConfig & AdmissionOptions) {
    super(config);
    this.queueWaitMs = config.queueWaitMs ?? null;
    if (this.queueWaitMs !== null) this.on('release', this.onRelease);
  }

  override connect(): Promise<PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<PoolClient> | void {
    if (this.queueWaitMs === null || this.ending) return callback ? super.connect(callback) : super.connect();
    if (!callback) {
      return new Promise<PoolClient>((resolve, reject) =>
        this.connect((error, client) => (error ? reject(error) : resolve(client as PoolClient))),
      );
    }
    if (this.line.length === 0 && this.handedOut < this.size) return this.handOut(callback);
    const now = performance.now();
    const frontWaitedMs = this.line.length > 0 ? now - this.line[0].joinedAt : 0;
    if (frontWaitedMs > this.queueWaitMs) return process.nextTick(callback, this.refuse(frontWaitedMs), undefined, NOOP);
    this.line.push({ callback, joinedAt: now });
    if (this.line.length === 1) this.watchForStall(now);
  }

  override end(): Promise<void>;
  override end(callback: () => void): void;
  override end(callback?: () => void): Promise<void> | void {
    this.failLine(new Error('Cannot use a pool after calling end on the pool'));
    if (this.reportTimer) {
      clearTimeout(this.reportTimer);
      this.reportRefusals();
    }
    return callback ? super.end(callback) : super.end();
  }

  private get size(): number {
    return this.options.max ?? 10;
  }

  private handOut(callback: ConnectCallback): void {
    this.handedOut += 1;
    super.connect((error, client, done) => {
      // A connection that could not be opened is not released: its place goes to the next caller.
      if (error) {
        this.handedOut -= 1;
        this.lastProgressAt = performance.now();
        this.serveLine();
      }
      callback(error, client, done);
    });
  }

  /** pg-pool's 'release': a connection came back (or was dropped); the line moves one place. */
  private readonly onRelease = (): void => {
    // Never below zero: pg-pool also releases, unasked, a connection opened for a caller that gave up.
    this.handedOut = Math.max(0, this.handedOut - 1);
    if (this.line.length === 0) return;
    this.lastProgressAt = performance.now();
    this.serveLine();
  };

  private serveLine(): void {
    while (this.line.length > 0 && this.handedOut < this.size) this.handOut((this.line.shift() as Waiter).callback);
    if (this.line.length === 0) this.stopWatching();
  }

  /**
   * While callers wait: when no connection has come back for the pool's connect deadline, the
   * database is not answering. Checked once more after the event loop's next poll phase, so that
   * answers which arrived while this process was too busy to read them count as progress.
   */
  private watchForStall(now: number): void {
    const stallMs = this.options.connectionTimeoutMillis;
    if (!stallMs) return;
    this.lastProgressAt = now;
    const generation = this.watchGeneration;
    const check = () => {
      if (generation !== this.watchGeneration) return;
      const quietMs = performance.now() - this.lastProgressAt;
      if (quietMs < stallMs) {
        this.stallTimer = setTimeout(() => setImmediate(check), stallMs - quietMs).unref();
        return;
      }
      this.failLine(Object.assign(new Error(`No database connection came back for ${stallMs} ms`), { code: 'ETIMEDOUT' }));
    };
    this.stallTimer = setTimeout(() => setImmediate(check), stallMs).unref();
  }

  private stopWatching(): void {
    if (this.stallTimer) clearTimeout(this.stallTimer);
    this.stallTimer = null;
    this.watchGeneration += 1;
  }

  private failLine(error: Error): void {
    this.stopWatching();
    for (const waiter of this.line.splice(0)) waiter.callback(error, undefined, NOOP);
  }

  private refuse(frontWaitedMs: number): DatabaseBusyError {
    const spread = RETRY_AFTER_MAX_SECONDS - RETRY_AFTER_MIN_SECONDS + 1;
    const retryAfter = RETRY_AFTER_MIN_SECONDS + Math.floor(Math.random() * spread);
    this.refusedSinceReport += 1;
    this.longestLineSinceReport = Math.max(this.longestLineSinceReport, this.line.length);
    this.reportTimer ??= setTimeout(() => this.reportRefusals(), REFUSALS_REPORT_MS).unref();
    return new DatabaseBusyError(retryAfter, this.line.length, Math.round(frontWaitedMs));
  }

  private reportRefusals(): void {
    this.logger.warn(
      `refused ${this.refusedSinceReport} requests in ${REFUSALS_REPORT_MS / 1000} s with 503: up to ` +
        `${this.longestLineSinceReport} were waiting for a database connection, the first longer than ` +
        `DATABASE_QUEUE_WAIT_MS (${this.queueWaitMs} ms)`,
    );
    this.refusedSinceReport = 0;
    this.longestLineSinceReport = 0;
    this.reportTimer = null;
  }
}
