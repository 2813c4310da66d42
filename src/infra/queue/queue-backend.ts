import { type ConnectionOptions, type QueueOptions, type WorkerOptions, createPostgresBackend, setDefaultBackendFactory } from 'bullmq';
import type { AppConfig } from '../../config/app-config';

export type QueueBackend = 'redis' | 'postgres';

const WORKER_CONCURRENCY = 8;

export function queueBackendOf(config: AppConfig): QueueBackend {
  return config.redisUrl ? 'redis' : 'postgres';
}

/**
 * The shared options of every queue and worker: Redis when REDIS_URL is set, otherwise BullMQ's
 * PostgreSQL backend in the service's own database (one queue library in every mode).
 *
 * The backend is a process-wide BullMQ default that Queue and Worker read when they are
 * constructed, and @nestjs/bullmq constructs them with no backend argument; so it is set here, on
 * every start, before the queues exist (a test process starts apps of both kinds one after the other).
 */
export function queueOptionsFor(config: AppConfig): QueueOptions {
  if (config.redisUrl) {
    setDefaultBackendFactory(undefined);
    // BullMQ needs maxRetriesPerRequest null on connections that block.
    return { connection: { url: config.redisUrl, maxRetriesPerRequest: null }, prefix: config.queuePrefix };
  }
  if (!config.databaseUrl) throw new Error('The queue needs REDIS_URL or a database URL');
  setDefaultBackendFactory(createPostgresBackend);
  const connection = {
    connectionString: config.databaseUrl,
    // PGlite ignores the search_path a separate schema needs.
    schema: config.embeddedDatabase ? 'public' : 'bullmq',
    migrate: true,
    max: 4,
  };
  return { connection: connection as unknown as ConnectionOptions, prefix: config.queuePrefix };
}

/**
 * On the embedded database LISTEN/NOTIFY does not cross connections, so an idle PostgreSQL-backed
 * worker only notices a new job when its wait ends: wait 1 s there instead of BullMQ's 5 s.
 */
export function workerOptionsFor(config: AppConfig): Pick<WorkerOptions, 'concurrency' | 'drainDelay'> {
  const polling = queueBackendOf(config) === 'postgres' && config.embeddedDatabase;
  return { concurrency: WORKER_CONCURRENCY, ...(polling ? { drainDelay: 1 } : {}) };
}
