import type { Type } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { randomBytes } from 'node:crypto';
import type { DestinationStream } from 'pino';
import { ProvisioningService } from '../../src/auth/provisioning.service';
import { createHttpApp } from '../../src/bootstrap';
import { AdjustableClock } from '../../src/common/clock/clock';
import { AppConfig, loadConfig, withDatabaseUrl } from '../../src/config/app-config';
import { Database } from '../../src/infra/database/database.service';
import { QueueService } from '../../src/infra/queue/queue.service';
import { Sweeper } from '../../src/infra/queue/sweeper.service';
import type { PlanName } from '../../src/projects/plans';
import type { ProjectRef } from '../../src/projects/project-ref';
import { ApiClient } from './api-client';
import { trackOpen, trackStart } from './open-apps';
import { deleteRedisKeys } from './redis-keys';
import { reportingSlowStart } from './slow-start';
import { createTestDatabase } from './test-database';

export interface TestAppOptions {
  /** Extra environment variables, as an operator would set them. */
  env?: Record<string, string>;
  /** Test-only modules, such as the probe module. */
  imports?: Type<unknown>[];
  /** Receives the log lines (set LOG_LEVEL in `env` to see any). */
  logDestination?: DestinationStream;
  /** False: start without checking ENCRYPTION_KEY, as the CLI does (an app with no key at all). */
  checkEncryptionKey?: boolean;
}

export interface SeededProject {
  project: ProjectRef;
  secretKey: string;
  publishableKey: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The real application on a database of its own, a copy of the migrated template: on the
 * machine's PostgreSQL (DATABASE_URL), or in an in-memory embedded PostgreSQL. Queues and rate-limit
 * counters get a prefix of their own in Redis (REDIS_URL), or run on the database.
 */
export class TestApp {
  readonly api: ApiClient;

  private closing: Promise<void> | null = null;
  private readonly untrack: () => void;

  private constructor(
    readonly app: NestExpressApplication,
    readonly config: AppConfig,
    readonly clock: AdjustableClock,
    private readonly cleanup: () => Promise<void>,
  ) {
    this.api = new ApiClient(app.getHttpServer());
    this.untrack = trackOpen(() => this.close());
  }

  static start(options: TestAppOptions = {}): Promise<TestApp> {
    return trackStart(TestApp.boot(options));
  }

  private static async boot(options: TestAppOptions): Promise<TestApp> {
    const prefix = `t_${randomBytes(6).toString('hex')}`;
    const database = await createTestDatabase();
    let redisUrl: string | null = null;
    const release = async () => {
      await database.drop();
      if (redisUrl) await deleteRedisKeys(redisUrl, prefix);
    };
    try {
      const config = withDatabaseUrl(loadConfig(testEnvironment(prefix, options)), database.url);
      redisUrl = config.redisUrl;
      const clock = new AdjustableClock();
      const app = await reportingSlowStart(
        database.url,
        'TestApp.start',
        createHttpApp(config, {
          clock,
          imports: options.imports,
          logDestination: options.logDestination,
          checkEncryptionKey: options.checkEncryptionKey,
        }),
      );
      return new TestApp(app, config, clock, async () => {
        await app.close();
        await release();
      });
    } catch (error) {
      // A start that fails half-way must not leave its database (or embedded server) behind.
      await release();
      throw error;
    }
  }

  get<T>(token: Type<T>): T {
    return this.app.get(token);
  }

  get db(): Database {
    return this.app.get(Database);
  }

  async seedProject(
    options: { plan?: PlanName; name?: string; slug?: string; legacyNotifications?: boolean } = {},
  ): Promise<SeededProject> {
    const created = await this.get(ProvisioningService).createProjectWithKeys({
      name: options.name ?? 'Test project',
      slug: options.slug,
      plan: options.plan ?? 'free',
      settings: options.legacyNotifications ? { require_user_hash: false } : undefined,
    });
    return { project: created.project, secretKey: created.secretKey, publishableKey: created.publishableKey };
  }

  /** Runs the sweeper once, then waits until no job is waiting, running or due. */
  async drainJobs(timeoutMs = 15_000): Promise<void> {
    const queue = this.get(QueueService);
    await this.get(Sweeper).runOnce();
    const deadline = Date.now() + timeoutMs;
    let idleChecks = 0;
    while (idleChecks < 2) {
      if (Date.now() > deadline) {
        throw new Error(`jobs still pending after ${timeoutMs} ms: ${(await queue.pendingJobs()).join(', ') || 'none now'}`);
      }
      idleChecks = (await queue.pendingJobCount()) === 0 ? idleChecks + 1 : 0;
      await sleep(25);
    }
  }

  /** Closes the app and drops its database; later calls wait for the first. */
  close(): Promise<void> {
    if (!this.closing) {
      this.untrack();
      this.closing = this.cleanup();
    }
    return this.closing;
  }
}

function testEnvironment(prefix: string, options: TestAppOptions): Record<string, string | undefined> {
  return {
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    REDIS_URL: process.env.REDIS_URL,
    QUEUE_PREFIX: prefix,
    PUBLIC_BASE_URL: 'https://launch.test',
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    WEBHOOK_RETRY_DELAYS: '1s,1s,1s,1s,1s',
    ...options.env,
  };
}
