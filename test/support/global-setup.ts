import { createDataSource, runMigrations } from '../../src/infra/database/data-source';
import { TEMPLATE_DATABASE, databaseUrl, withAdminClient } from './test-database';

/**
 * With DATABASE_URL: migrate a template database once; each e2e file then copies it. Leftover
 * databases of an interrupted run are dropped first. Without DATABASE_URL every file starts its own
 * in-memory embedded PostgreSQL, and there is nothing to prepare.
 */
export default async function globalSetup(): Promise<void> {
  const base = process.env.DATABASE_URL;
  if (!base) return;
  await withAdminClient(base, async (client) => {
    const leftovers = await client.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname ~ '^t_[0-9a-f]{12}$'`);
    for (const { datname } of leftovers.rows) await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    await client.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DATABASE} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${TEMPLATE_DATABASE}`);
  });
  const dataSource = createDataSource(databaseUrl(base, TEMPLATE_DATABASE), 2);
  await dataSource.initialize();
  await runMigrations(dataSource);
  // A template must have no open connections when it is copied.
  await dataSource.destroy();
}
