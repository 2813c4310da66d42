import { LATEST_SCHEMA_VERSION, MIGRATION_ADVISORY_LOCK_KEY } from 'bullmq';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { createHttpApp } from '../../src/bootstrap';
import { loadConfig, withDatabaseUrl } from '../../src/config/app-config';
import { QueueService } from '../../src/infra/queue/queue.service';
import { migrateQueueSchema } from '../../src/infra/queue/queue-schema';
import { TestDatabase, createTestDatabase } from '../support/test-database';

/**
 * BullMQ's tables on a PostgreSQL server (no REDIS_URL) are migrated once per process, before the
 * queues exist: a current schema costs one read and no lock, an outdated one waits a bounded time
 * for another process's migration, and the queues' own connections never migrate.
 */
(process.env.DATABASE_URL ? describe : describe.skip)('the queue schema on PostgreSQL', () => {
  let database: TestDatabase;
  let holder: Client;

  const configOf = (url: string) => withDatabaseUrl(loadConfig({ PUBLIC_BASE_URL: 'https://launch.test', DATABASE_URL: url }), url);
  const query = async <T>(sql: string, params: unknown[] = []): Promise<T[]> => (await holder.query(sql, params)).rows as T[];
  const ledgerVersion = async () =>
    (await query<{ version: number }>('SELECT max(version)::int AS version FROM bullmq.migration'))[0].version;
  /** Holds BullMQ's migration lock for the schema, as another process's migration would. */
  const holdMigrationLock = () => query('SELECT pg_advisory_lock($1, hashtext($2))', [MIGRATION_ADVISORY_LOCK_KEY, 'bullmq']);
  const releaseMigrationLock = () => query('SELECT pg_advisory_unlock_all()');

  beforeEach(async () => {
    database = await createTestDatabase();
    holder = new Client({ connectionString: database.url });
    await holder.connect();
  });
  afterEach(async () => {
    await holder?.end();
    await database?.drop();
  });

  it('creates the tables on a database without them, and a second run finds them current', async () => {
    await query('DROP SCHEMA bullmq CASCADE');
    await migrateQueueSchema(configOf(database.url));
    expect(await ledgerVersion()).toBe(LATEST_SCHEMA_VERSION);
    const tables = await query<{ name: string }>("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'bullmq'");
    expect(tables.map((table) => table.name)).toEqual(expect.arrayContaining(['job', 'migration', 'event']));
    // Current: not even BullMQ's migration lock is asked for, so a held lock does not delay it.
    await holdMigrationLock();
    const started = Date.now();
    await migrateQueueSchema(configOf(database.url), 60_000);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await query('SELECT version FROM bullmq.migration WHERE version > $1', [LATEST_SCHEMA_VERSION])).toEqual([]);
  });

  it('waits a bounded time for another process that holds the migration, then fails naming the schema', async () => {
    await query('DROP SCHEMA bullmq CASCADE');
    await holdMigrationLock();
    const started = Date.now();
    await expect(migrateQueueSchema(configOf(database.url), 300)).rejects.toThrow(
      /^the queue's tables \(schema bullmq\) could not be migrated: .*lock timeout/,
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    // Nothing half-made: the schema came with the transaction that was rolled back.
    expect(await query("SELECT 1 FROM information_schema.schemata WHERE schema_name = 'bullmq'")).toEqual([]);
    await releaseMigrationLock();
    await migrateQueueSchema(configOf(database.url), 300);
    expect(await ledgerVersion()).toBe(LATEST_SCHEMA_VERSION);
  });

  it("starts the service's queues and workers while another process holds the migration lock", async () => {
    // With each connection migrating for itself (BullMQ's `migrate: true`), this start would wait
    // for the lock as long as it is held.
    await holdMigrationLock();
    const env = {
      LOG_LEVEL: 'silent',
      REDIS_URL: '',
      DATABASE_URL: database.url,
      PUBLIC_BASE_URL: 'https://launch.test',
      QUEUE_PREFIX: `t_${randomBytes(6).toString('hex')}`,
      ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    };
    const starting = createHttpApp(loadConfig(env));
    const app = await Promise.race([starting, sleep(30_000, null, { ref: false })]);
    try {
      expect(app).not.toBeNull();
      expect(app!.get(QueueService).backend).toBe('postgres');
      const waiting = await query(
        "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
      );
      expect(waiting).toEqual([]);
    } finally {
      await releaseMigrationLock();
      await (app ?? (await starting)).close();
    }
  });
});
