import { LATEST_SCHEMA_VERSION, SchemaMigrationRequiredError, assertSchemaCompatibility, runMigrations } from 'bullmq';
import { Client } from 'pg';
import type { AppConfig } from '../../config/app-config';

/** The schema of BullMQ's tables: its own on a PostgreSQL server, `public` on the embedded one (no search_path there). */
export function queueSchemaOf(config: AppConfig): string {
  return config.embeddedDatabase ? 'public' : 'bullmq';
}

/** How long a process waits for another process's migration of the queue's tables before it gives up. */
export const QUEUE_SCHEMA_LOCK_WAIT_MS = 30_000;

/** The version of BullMQ's tables in `schema`: 0 when they do not exist yet. */
async function queueSchemaVersion(client: Client, schema: string): Promise<number> {
  try {
    return await assertSchemaCompatibility(client, schema);
  } catch (error) {
    if (error instanceof SchemaMigrationRequiredError) return 0;
    throw error;
  }
}

/**
 * Brings BullMQ's tables up to date once per process, on one connection, before any queue or
 * worker exists; the queues' own connections then only check the schema (`migrate: false`).
 *
 * Left to BullMQ (`migrate: true`), every queue and worker connection migrates on its first use
 * (ten in a process with workers), one after the other: each a transaction that takes BullMQ's
 * migration lock, an exclusive lock on its ledger table and a commit even when nothing is new, and
 * waits without a limit. Here a current schema costs one read, an outdated one a single migration
 * whose wait for another process's is bounded, so a start that cannot get the lock fails with a
 * message instead of hanging. Nothing to do on Redis.
 */
export async function migrateQueueSchema(config: AppConfig, lockWaitMs = QUEUE_SCHEMA_LOCK_WAIT_MS): Promise<void> {
  if (config.redisUrl || !config.databaseUrl) return;
  const client = new Client({
    connectionString: config.databaseUrl,
    application_name: 'launch-queue-migration',
    // As for the service's own pool (database.module.ts): no wait limits on the embedded database.
    ...(config.embeddedDatabase
      ? {}
      : { connectionTimeoutMillis: config.deadlines.databaseConnectMs, options: `-c lock_timeout=${lockWaitMs}` }),
  });
  // A connection that drops mid-migration rejects the query in progress; the event must not also
  // go unhandled.
  client.on('error', () => undefined);
  const schema = queueSchemaOf(config);
  try {
    await client.connect();
    if ((await queueSchemaVersion(client, schema)) >= LATEST_SCHEMA_VERSION) return;
    await runMigrations(client, schema);
  } catch (error) {
    throw new Error(`the queue's tables (schema ${schema}) could not be migrated: ${(error as Error).message}`, {
      cause: error,
    });
  } finally {
    await client.end().catch(() => undefined);
  }
}
