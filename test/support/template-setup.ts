import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, withDatabaseUrl } from '../../src/config/app-config';
import { ENTITIES } from '../../src/entities';
import { createDataSource, runMigrations } from '../../src/infra/database/data-source';
import { startEmbeddedPostgres } from '../../src/infra/database/embedded-postgres';
import { migrateQueueSchema } from '../../src/infra/queue/queue-schema';
import { databaseUrl, withAdminClient } from './test-database';

// The template databases of global-setup.ts; their names travel to the workers through the environment.

/** With DATABASE_URL: a template database, copied by CREATE DATABASE … TEMPLATE. */
export async function migratePostgresTemplate(base: string): Promise<void> {
  const template = `launch_tpl_${randomBytes(5).toString('hex')}`;
  process.env.LAUNCH_TEST_TEMPLATE = template;
  await withAdminClient(base, (client) => client.query(`CREATE DATABASE ${template}`));
  await migrate(databaseUrl(base, template), false);
}

/** Without it: a tarball of a migrated embedded database, loaded by each file's in-memory PGlite. */
export async function migrateEmbeddedTemplate(): Promise<void> {
  const embedded = await startEmbeddedPostgres({ dataDir: 'memory' });
  try {
    await migrate(embedded.url, true);
    const path = join(tmpdir(), `launch-template-${randomBytes(5).toString('hex')}.tar`);
    await embedded.saveTo(path);
    process.env.LAUNCH_TEST_EMBEDDED_TEMPLATE = path;
  } finally {
    await embedded.stop();
  }
}

/** The service's tables, and BullMQ's for the suites that run the queues on the database. */
async function migrate(url: string, embedded: boolean): Promise<void> {
  const dataSource = createDataSource(url, ENTITIES);
  await dataSource.initialize();
  try {
    await runMigrations(dataSource);
  } finally {
    // A template must have no open connections when it is copied.
    await dataSource.destroy();
  }
  const env = { PUBLIC_BASE_URL: 'https://launch.test', ...(embedded ? {} : { DATABASE_URL: url }) };
  await migrateQueueSchema(withDatabaseUrl(loadConfig(env), url));
}
