import { Client } from 'pg';

/** An app start that takes this long on a PostgreSQL server is stuck or starved: say on what. */
const SLOW_START_MS = 20_000;

/**
 * Runs `start`; if it has not settled after SLOW_START_MS, prints what every session on its
 * database is doing (state, wait, the sessions blocking it, the statement), so a start that runs
 * into a hook's timeout leaves the reason in the log instead of a bare "Exceeded timeout".
 */
export async function reportingSlowStart<T>(databaseUrl: string, what: string, start: Promise<T>): Promise<T> {
  const timer = setTimeout(() => void describeSessions(databaseUrl, what), SLOW_START_MS);
  timer.unref();
  try {
    return await start;
  } finally {
    clearTimeout(timer);
  }
}

async function describeSessions(databaseUrl: string, what: string): Promise<void> {
  const client = new Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const { rows } = await client.query(
      `SELECT pid, application_name, state, wait_event_type, wait_event, pg_blocking_pids(pid) AS blocked_by,
              round(extract(epoch FROM clock_timestamp() - xact_start)::numeric, 1) AS transaction_s, left(query, 160) AS query
         FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() ORDER BY xact_start NULLS LAST`,
    );
    console.warn(
      `${what} has not finished after ${SLOW_START_MS / 1000} s; the sessions on its database:\n${JSON.stringify(rows, null, 1)}`,
    );
  } catch (error) {
    console.warn(`${what} has not finished after ${SLOW_START_MS / 1000} s; its database did not answer: ${(error as Error).message}`);
  } finally {
    await client.end().catch(() => undefined);
  }
}
