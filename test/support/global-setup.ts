import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENTITIES } from '../../src/entities';
import { createDataSource, runMigrations } from '../../src/infra/database/data-source';
import { startEmbeddedPostgres } from '../../src/infra/database/embedded-postgres';
import { startBackgroundBuild } from './server-process';
import { databaseUrl, withAdminClient } from './test-database';

/**
 * Migrates a template once for this run, so each e2e file starts from a copy instead of an empty
 * database: with DATABASE_URL a template database (copied by CREATE DATABASE … TEMPLATE), without
 * it a tarball of a migrated embedded database (loaded by each file's in-memory PGlite, no initdb).
 * The names travel to the workers through the environment.
 */
export default async function globalSetup(): Promise<void> {
  const base = process.env.DATABASE_URL;
  // The service compiled in the background for tests that run it as a child process (server-process.ts).
  // Inside the checkout, so that the compiled files resolve node_modules.
  const build = join(__dirname, '..', '..', '.test-build', randomBytes(5).toString('hex'));
  process.env.LAUNCH_TEST_BUILD_DIR = build;
  process.env.LAUNCH_TEST_BUILD_PID = String(startBackgroundBuild(build));
  if (base) await migratePostgresTemplate(base);
  else await migrateEmbeddedTemplate();
  forgetEntityMetadata();
}

/**
 * TypeORM keeps its decorator metadata on the global object. Jest copies the globals of this
 * process into every test file it runs here (single-file and --runInBand runs), so the files would
 * share that storage and each file's entity classes would keep the whole file alive: its app, its
 * embedded database, hundreds of MB per file. The template is migrated; nothing here needs it now.
 */
function forgetEntityMetadata(): void {
  delete (globalThis as { typeormMetadataArgsStorage?: unknown }).typeormMetadataArgsStorage;
}

async function migratePostgresTemplate(base: string): Promise<void> {
  const template = `launch_tpl_${randomBytes(5).toString('hex')}`;
  process.env.LAUNCH_TEST_TEMPLATE = template;
  await withAdminClient(base, (client) => client.query(`CREATE DATABASE ${template}`));
  await migrate(databaseUrl(base, template));
}

async function migrateEmbeddedTemplate(): Promise<void> {
  const embedded = await startEmbeddedPostgres({ dataDir: 'memory' });
  try {
    await migrate(embedded.url);
    const path = join(tmpdir(), `launch-template-${randomBytes(5).toString('hex')}.tar`);
    await embedded.saveTo(path);
    process.env.LAUNCH_TEST_EMBEDDED_TEMPLATE = path;
  } finally {
    await embedded.stop();
  }
}

async function migrate(url: string): Promise<void> {
  const dataSource = createDataSource(url, ENTITIES);
  await dataSource.initialize();
  try {
    await runMigrations(dataSource);
  } finally {
    // A template must have no open connections when it is copied.
    await dataSource.destroy();
  }
}
