import { DeadlineClient, deadlineOptions } from './postgres-deadlines';

describe('deadlineOptions', () => {
  it("sets the server's statement and idle-in-transaction timeouts and starts keepalive probes early", () => {
    expect(deadlineOptions({ connectMs: 5_000, statementMs: 10_000, idleInTransactionMs: 2_000, keepAliveIdleMs: 10_000 })).toEqual({
      Client: DeadlineClient,
      connectionTimeoutMillis: 5_000,
      statement_timeout: 10_000,
      query_timeout: 11_000,
      idle_in_transaction_session_timeout: 2_000,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
  });

  it('leaves out what has no deadline (migrations, the embedded database)', () => {
    expect(deadlineOptions({ connectMs: null, statementMs: null, idleInTransactionMs: null, keepAliveIdleMs: null })).toEqual({
      Client: DeadlineClient,
      keepAlive: true,
    });
  });
});
