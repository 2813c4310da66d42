import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { startEmbeddedPostgres } from '../../src/infra/database/embedded-postgres';

export interface TestDatabase {
  /** A postgres:// URL of a database nobody else uses, migrated like the template of this run. */
  readonly url: string;
  drop(): Promise<void>;
}

function fromEnvironment(variable: string): string {
  const value = process.env[variable];
  if (!value) throw new Error(`${variable} is not set: run the e2e suites through jest (global setup)`);
  return value;
}

/** The server part of DATABASE_URL with another database name. */
export function databaseUrl(base: string, database: string): string {
  const url = new URL(base);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function withAdminClient<T>(base: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: databaseUrl(base, 'postgres') });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * A fresh copy of the migrated template of this run (see global setup): a database copied on the
 * DATABASE_URL server in milliseconds, or else an in-memory embedded PostgreSQL loaded from the
 * template's tarball. Isolated per caller, so test files run in parallel without seeing each other.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const base = process.env.DATABASE_URL;
  if (!base) {
    const embedded = await startEmbeddedPostgres({ dataDir: 'memory', template: fromEnvironment('LAUNCH_TEST_EMBEDDED_TEMPLATE') });
    return { url: embedded.url, drop: () => embedded.stop() };
  }
  const name = `t_${randomBytes(6).toString('hex')}`;
  const template = fromEnvironment('LAUNCH_TEST_TEMPLATE');
  await withAdminClient(base, (client) => client.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
  return {
    url: databaseUrl(base, name),
    drop: () => withAdminClient(base, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}
