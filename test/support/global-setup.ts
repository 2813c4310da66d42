import { randomBytes } from 'node:crypto';
import { ENTITIES } from '../../src/entities';
import { createDataSource, runMigrations } from '../../src/infra/database/data-source';
import { databaseUrl, withAdminClient } from './test-database';

/**
 * With DATABASE_URL: migrate a template database once for this run; each e2e file then copies it.
 * Without DATABASE_URL every file starts its own in-memory embedded PostgreSQL instead.
 */
export default async function globalSetup(): Promise<void> {
  const base = process.env.DATABASE_URL;
  if (!base) return;
  const template = `launch_tpl_${randomBytes(5).toString('hex')}`;
  process.env.LAUNCH_TEST_TEMPLATE = template;
  await withAdminClient(base, (client) => client.query(`CREATE DATABASE ${template}`));
  const dataSource = createDataSource(databaseUrl(base, template), ENTITIES, 2);
  await dataSource.initialize();
  await runMigrations(dataSource);
  // A template must have no open connections when it is copied.
  await dataSource.destroy();
}
