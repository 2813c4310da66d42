import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/**
 * The migrated template of this test run. Global setup picks the name and passes it to the workers
 * through the environment, so several runs on one server do not disturb each other.
 */
export function templateDatabase(): string {
  const name = process.env.LAUNCH_TEST_TEMPLATE;
  if (!name) throw new Error('LAUNCH_TEST_TEMPLATE is not set: run the e2e suites through jest (global setup)');
  return name;
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

/** A fresh database copied from the migrated template: milliseconds, isolated per test file. */
export async function createTestDatabase(base: string): Promise<{ name: string; url: string }> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  await withAdminClient(base, (client) => client.query(`CREATE DATABASE ${name} TEMPLATE ${templateDatabase()}`));
  return { name, url: databaseUrl(base, name) };
}

export async function dropTestDatabase(base: string, name: string): Promise<void> {
  await withAdminClient(base, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}
