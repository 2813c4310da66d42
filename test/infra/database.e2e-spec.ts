import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Pool } from 'pg';
import { EntityManager, QueryFailedError, QueryRunnerProviderAlreadyReleasedError } from 'typeorm';
import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
import { pendingSchemaChanges } from '../../src/cli/migration-generator';
import { ENTITIES } from '../../src/entities';
import { createDataSource, runMigrations } from '../../src/infra/database/data-source';
import { startEmbeddedPostgres } from '../../src/infra/database/embedded-postgres';
import { MIGRATIONS } from '../../src/infra/database/migrations';
import { isUniqueViolation } from '../../src/infra/database/postgres-errors';
import { TestApp } from '../support/test-app';
import { createTestDatabase } from '../support/test-database';

describe('database schema', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.close());

  it('has migrations that match the entities exactly', async () => {
    const { up } = await pendingSchemaChanges(t.db.dataSource);
    expect(up).toEqual([]);
  });

  it('can roll every migration back and apply it again', async () => {
    // A database of its own: the app's stays migrated for the other tests.
    const database = await createTestDatabase();
    const dataSource = createDataSource(database.url, ENTITIES);
    await dataSource.initialize();
    try {
      for (let i = 0; i < MIGRATIONS.length; i += 1) await dataSource.undoLastMigration({ transaction: 'each' });
      const tables = await dataSource.query(`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = 'projects'`);
      expect(tables[0].n).toBe(0);
      expect(await runMigrations(dataSource)).toHaveLength(MIGRATIONS.length);
      expect((await pendingSchemaChanges(dataSource)).up).toEqual([]);
    } finally {
      await dataSource.destroy();
      await database.drop();
    }
  });

  it('stores timestamps as timestamptz', async () => {
    const columns: { table_name: string; column_name: string }[] = await t.db.manager.query(
      `SELECT table_name, column_name FROM information_schema.columns
       WHERE table_schema = 'public' AND data_type = 'timestamp without time zone'`,
    );
    expect(columns).toEqual([]);
  });

  it('reads through the pool TypeORM holds: rows and failures as manager.query gives them', async () => {
    const sql = 'SELECT $1::int + 1 AS next, $2::text AS label, $3::timestamptz AS at';
    const parameters = [41, 'x', new Date('2026-01-02T03:04:05Z')];
    const pooled = await t.db.reads.query<{ next: number; label: string; at: Date }[]>(sql, parameters);
    expect(pooled).toEqual([{ next: 42, label: 'x', at: new Date('2026-01-02T03:04:05Z') }]);
    expect(pooled).toEqual(await t.db.manager.query(sql, parameters));
    // No connection is kept: as many reads as the pool has connections, twice over, all answer.
    const many = await Promise.all(Array.from({ length: 40 }, (_, i) => t.db.reads.query<{ n: number }[]>('SELECT $1::int AS n', [i])));
    expect(many.map(([row]) => row.n)).toEqual(Array.from({ length: 40 }, (_, i) => i));
    const failure = await t.db.reads.query('SELECT * FROM no_such_table').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(QueryFailedError);
    expect(failure).toMatchObject({ code: '42P01', driverError: { code: '42P01' } });
  });

  describe('statements inside Database.transaction', () => {
    const table = `tx_probe_${process.pid}`;
    // The same statements, each answer kept: INSERT, SELECT, UPDATE … RETURNING, DELETE.
    const script = async (em: EntityManager, id: number) => [
      await em.query(`INSERT INTO ${table} (id, label) VALUES ($1, $2)`, [id, 'a']),
      await em.query(`SELECT id, label FROM ${table} WHERE id = $1`, [id]),
      await em.query(`UPDATE ${table} SET label = $2 WHERE id = $1 RETURNING label`, [id, 'b']),
      await em.query(`UPDATE ${table} SET label = 'c' WHERE id = -1`),
      await em.query(`DELETE FROM ${table} WHERE id = $1`, [id]),
    ];

    beforeAll(() => t.db.manager.query(`CREATE TABLE ${table} (id int PRIMARY KEY, label text NOT NULL)`));
    afterAll(() => t.db.manager.query(`DROP TABLE ${table}`));
    afterEach(() => jest.restoreAllMocks());

    it("go straight to the transaction's connection and answer exactly what TypeORM's path answers", async () => {
      const throughTypeOrm = await t.db.dataSource.transaction((em) => script(em, 1));
      const runnerQuery = jest.spyOn(PostgresQueryRunner.prototype, 'query');
      const direct = await t.db.transaction((em) => script(em, 1));
      // Only START TRANSACTION and COMMIT take TypeORM's path.
      expect(runnerQuery.mock.calls.map(([sql]) => sql)).toEqual(['START TRANSACTION', 'COMMIT']);
      expect(direct).toEqual(throughTypeOrm);
      expect(direct).toEqual([[], [{ id: 1, label: 'a' }], [[{ label: 'b' }], 1], [[], 0], [[], 1]]);
    });

    it('share the connection with repositories and query builders of the same manager', async () => {
      const seen = await t.db.transaction(async (em) => {
        await em.query(`INSERT INTO ${table} (id, label) VALUES ($1, $2)`, [3, 'uncommitted']);
        return em.createQueryBuilder().select('label').from(table, 'p').where('id = :id', { id: 3 }).getRawOne<{ label: string }>();
      });
      expect(seen).toEqual({ label: 'uncommitted' });
      await t.db.manager.query(`DELETE FROM ${table} WHERE id = 3`);
    });

    it('fail as TypeORM fails (QueryFailedError with the driver error) and leave nothing behind', async () => {
      const failure = await t.db
        .transaction(async (em) => {
          await em.query(`INSERT INTO ${table} (id, label) VALUES (4, 'first')`);
          await em.query(`INSERT INTO ${table} (id, label) VALUES (4, 'again')`);
        })
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(QueryFailedError);
      expect(failure).toMatchObject({ driverError: { code: '23505', constraint: `${table}_pkey` } });
      expect(isUniqueViolation(failure, `${table}_pkey`)).toBe(true);
      expect(await t.db.manager.query(`SELECT id FROM ${table} WHERE id = 4`)).toEqual([]);
    });

    it('are refused once the transaction has ended', async () => {
      let kept: EntityManager | null = null;
      await t.db.transaction(async (em) => {
        kept = em;
      });
      await expect(kept!.query('SELECT 1')).rejects.toBeInstanceOf(QueryRunnerProviderAlreadyReleasedError);
    });
  });
});

describe('embedded PostgreSQL', () => {
  it('serves concurrent parameterized queries and transactions from a pool without errors', async () => {
    const embedded = await startEmbeddedPostgres({ dataDir: 'memory' });
    // Timeouts turn a protocol mix-up (which hangs a connection) into a failure.
    const pool = new Pool({ connectionString: embedded.url, max: 12, query_timeout: 10_000, connectionTimeoutMillis: 10_000 });
    try {
      await pool.query('CREATE TABLE stress (id serial PRIMARY KEY, a int NOT NULL, b text NOT NULL, c int NOT NULL)');
      const transaction = async (i: number) => {
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          await client.query('INSERT INTO stress (a, b, c) VALUES ($1, $2, $3)', [i, `row ${i}`, i * 2]);
          const { rows } = await client.query('SELECT count(*)::int AS n FROM stress WHERE a = $1', [i]);
          await client.query('COMMIT');
          return rows[0].n as number;
        } catch (error) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw error;
        } finally {
          client.release();
        }
      };
      const work = Array.from({ length: 600 }, (_, i) => {
        if (i % 3 === 0) return transaction(i);
        if (i % 3 === 1)
          return pool.query('SELECT $1::int + $2::int AS sum, $3::text AS label', [i, 1, 'x']).then((r) => r.rows[0].sum - i);
        return pool.query('SELECT $1::text AS only', [`v${i}`]).then(() => 1);
      });
      const results = await Promise.allSettled(work);
      const failures = results.filter((result) => result.status === 'rejected');
      expect(failures.map((failure) => String((failure as PromiseRejectedResult).reason))).toEqual([]);
      expect((await pool.query('SELECT count(*)::int AS n FROM stress')).rows[0].n).toBe(200);
    } finally {
      await pool.end();
      await embedded.stop();
    }
  });

  it('refuses to open a data folder that another live process holds', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'launch-embedded-'));
    const first = await startEmbeddedPostgres({ dataDir });
    try {
      const client = new Client({ connectionString: first.url });
      await client.connect();
      await client.query('CREATE TABLE kept (x int)');
      await client.end();
      // The same process may reopen (a restart); a different live pid may not.
      const lockPath = join(dataDir, 'embedded.lock');
      writeFileSync(lockPath, JSON.stringify({ pid: process.ppid }));
      await expect(startEmbeddedPostgres({ dataDir })).rejects.toThrow(/in use by process/);
    } finally {
      await first.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
