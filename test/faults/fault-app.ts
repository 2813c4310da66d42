import type { NestExpressApplication } from '@nestjs/platform-express';
import { randomBytes } from 'node:crypto';
import { ProvisioningService } from '../../src/auth/provisioning.service';
import { createHttpApp } from '../../src/bootstrap';
import { AdjustableClock } from '../../src/common/clock/clock';
import { loadConfig } from '../../src/config/app-config';
import { ApiClient } from '../support/api-client';
import { TcpProxy, startTcpProxy } from '../support/tcp-proxy';
import { TestDatabase, createTestDatabase } from '../support/test-database';
import { deleteRedisKeysAtFileEnd } from '../support/redis-keys';

/** Short deadlines, so that each fault test takes a few seconds. */
export const SHORT_DEADLINES = {
  DATABASE_CONNECT_TIMEOUT_MS: '1000',
  DATABASE_STATEMENT_TIMEOUT_MS: '1000',
  // A session left inside a transaction by a cut connection (its bytes delivered once the network
  // is back, its client long gone) frees the locks it took within this, not after the default 10 s.
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: '2000',
  REDIS_COMMAND_TIMEOUT_MS: '500',
};

export interface FaultApp {
  app: NestExpressApplication;
  api: ApiClient;
  proxy: TcpProxy;
  publishableKey: string;
  secretKey: string;
  projectId: string;
  close(): Promise<void>;
}

function target(url: string): { host: string; port: number } {
  const parsed = new URL(url);
  return { host: parsed.hostname, port: Number(parsed.port || (parsed.protocol.startsWith('redis') ? 6379 : 5432)) };
}

/**
 * The real application with a TCP proxy in front of PostgreSQL (`behind: 'database'`) or Redis
 * (`behind: 'redis'`), which the test pauses, closes and brings back.
 */
export async function startFaultApp(behind: 'database' | 'redis'): Promise<FaultApp> {
  const database: TestDatabase = await createTestDatabase();
  const redisUrl = process.env.REDIS_URL;
  const proxied = behind === 'database' ? database.url : redisUrl;
  if (!proxied) throw new Error('REDIS_URL is not set');
  const proxy = await startTcpProxy(target(proxied));
  const prefix = `t_${randomBytes(6).toString('hex')}`;
  deleteRedisKeysAtFileEnd(redisUrl, prefix);
  const config = loadConfig({
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATABASE_URL: behind === 'database' ? proxy.rewrite(database.url) : database.url,
    REDIS_URL: behind === 'redis' ? proxy.rewrite(proxied) : redisUrl,
    QUEUE_PREFIX: prefix,
    WORKERS: 'off',
    PUBLIC_BASE_URL: 'https://launch.test',
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    ...SHORT_DEADLINES,
  });
  const app = await createHttpApp(config, { clock: new AdjustableClock() });
  const created = await app.get(ProvisioningService).createProjectWithKeys({ name: 'Faults', plan: 'indie' });
  return {
    app,
    api: new ApiClient(app.getHttpServer()),
    proxy,
    publishableKey: created.publishableKey,
    secretKey: created.secretKey,
    projectId: created.project.id,
    async close() {
      proxy.resume();
      await app.close();
      await proxy.close();
      await database.drop();
    },
  };
}

/** Retries `attempt` until it returns true, at most `ms`. */
export async function eventually(attempt: () => Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await attempt()) return;
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
