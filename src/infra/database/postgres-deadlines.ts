import { Client, type ClientConfig, type PoolConfig } from 'pg';

export interface PostgresDeadlines {
  /** Waiting for a pooled connection, opening one included; null: no limit. */
  readonly connectMs: number | null;
  /** PostgreSQL's own statement_timeout: the server cancels a statement that runs longer; null: none. */
  readonly statementMs: number | null;
  /**
   * PostgreSQL's idle_in_transaction_session_timeout: the server ends a session that sits inside a
   * transaction saying nothing for longer (a frozen or vanished client), which releases its locks;
   * null: none.
   */
  readonly idleInTransactionMs: number | null;
  /** Idle time before TCP keepalive probes start on a pooled connection; null: the OS default (2 h on Linux). */
  readonly keepAliveIdleMs: number | null;
}

// The client waits this much longer than the server's statement_timeout, so a slow statement is
// normally cancelled by the server (a clean error, the connection kept) and only a silent network
// trips the client-side deadline.
const CLIENT_GRACE_MS = 1_000;

const READ_TIMEOUT_MESSAGE = 'Query read timeout';

/**
 * A pg client that drops its connection when a query outlives the client-side deadline. pg's own
 * `query_timeout` only rejects the promise: the statement stays active on the socket, so every
 * later query on that pooled client waits behind it, for as long as the network stays silent.
 * Destroying the socket makes the pool discard the client and open a fresh one once the server
 * answers again, so the service recovers by itself.
 */
export class DeadlineClient extends Client {
  // pg's query() has many overloads; this one forwards them all and only watches the outcome.
  override query(...args: unknown[]): never {
    const last = args[args.length - 1];
    if (typeof last === 'function') {
      const callback = last as (error: Error | null, result: unknown) => void;
      args[args.length - 1] = (error: Error | null, result: unknown) => {
        if (error) this.dropIfTimedOut(error);
        callback(error, result);
      };
    }
    const result = (super.query as (...params: unknown[]) => unknown)(...args);
    if (result && typeof (result as Promise<unknown>).then === 'function') {
      (result as Promise<unknown>).catch((error: Error) => this.dropIfTimedOut(error));
    }
    return result as never;
  }

  private dropIfTimedOut(error: Error): void {
    if (error?.message !== READ_TIMEOUT_MESSAGE) return;
    const stream = (this as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream;
    stream?.destroy();
  }
}

/** Pool and connection options that give every PostgreSQL call a deadline. */
export function deadlineOptions(deadlines: PostgresDeadlines): PoolConfig & ClientConfig & { Client: typeof Client } {
  const statement =
    deadlines.statementMs === null
      ? {}
      : {
          statement_timeout: deadlines.statementMs,
          query_timeout: deadlines.statementMs + CLIENT_GRACE_MS,
        };
  return {
    Client: DeadlineClient,
    ...(deadlines.connectMs === null ? {} : { connectionTimeoutMillis: deadlines.connectMs }),
    ...statement,
    ...(deadlines.idleInTransactionMs === null ? {} : { idle_in_transaction_session_timeout: deadlines.idleInTransactionMs }),
    // A peer that vanished without closing is noticed by TCP instead of never.
    keepAlive: true,
    ...(deadlines.keepAliveIdleMs === null ? {} : { keepAliveInitialDelayMillis: deadlines.keepAliveIdleMs }),
  };
}
