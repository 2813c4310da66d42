import { randomBytes } from 'node:crypto';
import { join, relative } from 'node:path';
import { startBackgroundBuild } from './server-process';

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
  progress(`compiling the service in the background (${relative(process.cwd(), build)}) for the suites that start it as a process`);
  // Required here rather than imported, so the line above shows before jest compiles the service's modules.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const template = await step(
    'loading the entities and migrations',
    async () => require('./template-setup') as typeof import('./template-setup'),
  );
  /* eslint-enable @typescript-eslint/no-require-imports */
  if (base) await step('migrating a template database on DATABASE_URL', () => template.migratePostgresTemplate(base));
  else await step('migrating an embedded template database (no DATABASE_URL)', () => template.migrateEmbeddedTemplate());
  forgetEntityMetadata();
}

/** A line on stderr: the set-up is otherwise silent for its first seconds. */
function progress(line: string): void {
  process.stderr.write(`test setup: ${line}\n`);
}

/** Says what the set-up is doing, then how long it took. */
async function step<T>(what: string, work: () => Promise<T>): Promise<T> {
  progress(`${what}…`);
  const started = Date.now();
  const result = await work();
  progress(`${what}: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return result;
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
