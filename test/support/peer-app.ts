import type { NestExpressApplication } from '@nestjs/platform-express';
import { randomBytes } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { createHttpApp } from '../../src/bootstrap';
import type { AdjustableClock } from '../../src/common/clock/clock';
import { loadConfig, withDatabaseUrl } from '../../src/config/app-config';
import { ChangeNotifications } from '../../src/infra/database/change-notifications.service';
import { Database } from '../../src/infra/database/database.service';
import { reportingSlowStart } from './slow-start';
import type { TestApp } from './test-app';

/**
 * A second API process on A's database (`WORKERS=off`, its own queue prefix and clock, A's
 * encryption key), in this test process: for suites that check what a change made on one process
 * does to another's caches. Needs a PostgreSQL server: the embedded database serves one process.
 */
export function startPeerApp(a: TestApp, clock: AdjustableClock, extra: Record<string, string> = {}): Promise<NestExpressApplication> {
  const env = {
    LOG_LEVEL: 'silent',
    WORKERS: 'off',
    REDIS_URL: process.env.REDIS_URL,
    // Under A's prefix, so that A's cleanup deletes the peer's Redis keys too (redis-keys.ts).
    QUEUE_PREFIX: `${a.config.queuePrefix}_${randomBytes(3).toString('hex')}`,
    ENCRYPTION_KEY: a.config.encryptionKey!.toString('base64'),
    ...extra,
  };
  return reportingSlowStart(
    a.config.databaseUrl!,
    'a peer app',
    createHttpApp(withDatabaseUrl(loadConfig(env), a.config.databaseUrl!), { clock }),
  );
}

/** Waits until every app's change listener has LISTEN in place (which drops every cached copy once). */
export async function untilListening(apps: { get: TestApp['get'] }[]): Promise<void> {
  const listeners = apps.map((app) => app.get(ChangeNotifications));
  for (const listener of listeners) listener.start();
  for (let tries = 0; listeners.some((listener) => !listener.isListening); tries += 1) {
    if (tries > 500) throw new Error('a change listener did not LISTEN within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The statements the apps' `Database.manager` sent while `work` ran (cache invalidations left out). */
export async function statementsDuring(apps: { get: TestApp['get'] }[], work: () => Promise<unknown>): Promise<string[]> {
  const statements: string[] = [];
  const record = (sql: string) => {
    if (!sql.includes('pg_notify')) statements.push(sql);
  };
  // Every way a statement leaves a process outside a transaction: TypeORM's manager, and the
  // direct `reads` and named `preparedReads` paths.
  const spies = apps.flatMap((app) => {
    const db = app.get(Database);
    const manager: EntityManager = db.manager;
    const original = manager.query.bind(manager);
    const direct = [db.reads, db.preparedReads].map((runner) => {
      const send = runner.query.bind(runner);
      return jest.spyOn(runner, 'query').mockImplementation(<T>(sql: string, params?: unknown[]) => {
        record(sql);
        return send<T>(sql, params);
      });
    });
    return [
      jest.spyOn(manager, 'query').mockImplementation((sql: string, params?: Parameters<EntityManager['query']>[1]) => {
        record(sql);
        return original(sql, params);
      }),
      ...direct,
    ];
  });
  try {
    await work();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return statements;
}
