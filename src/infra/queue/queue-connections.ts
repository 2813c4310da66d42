import { Queue, Worker, createPostgresBackend, withBackend } from 'bullmq';
import Redis from 'ioredis';
import type { AppConfig } from '../../config/app-config';

export type QueueLike = Pick<Queue, 'add' | 'close' | 'getJobCounts' | 'getDelayed' | 'name'>;
export type WorkerLike = Pick<Worker, 'close' | 'on' | 'waitUntilReady'>;

type Processor = (job: { name: string; data: unknown; id?: string }) => Promise<void>;

export interface QueueFactory {
  readonly backend: 'redis' | 'postgres';
  createQueue(name: string): QueueLike;
  createWorker(name: string, processor: Processor, concurrency: number): WorkerLike;
  close(): Promise<void>;
}

function redisFactory(config: AppConfig, url: string): QueueFactory {
  const clients: Redis[] = [];
  // BullMQ needs maxRetriesPerRequest null on connections that block.
  const connect = () => {
    const client = new Redis(url, { maxRetriesPerRequest: null });
    clients.push(client);
    return client;
  };
  const shared = connect();
  return {
    backend: 'redis',
    createQueue: (name) => new Queue(name, { connection: shared, prefix: config.queuePrefix }),
    createWorker: (name, processor, concurrency) =>
      new Worker(name, processor, { connection: connect(), prefix: config.queuePrefix, concurrency, autorun: true }),
    close: async () => {
      await Promise.all(clients.map((client) => client.quit().catch(() => client.disconnect())));
    },
  };
}

/**
 * Without Redis, BullMQ runs on its PostgreSQL backend in the service's own database: the same
 * queue code in every mode. On the embedded database LISTEN/NOTIFY does not cross connections, so
 * workers poll every second instead of waiting for a notification.
 */
function postgresFactory(config: AppConfig, databaseUrl: string): QueueFactory {
  const pg = withBackend(createPostgresBackend);
  const connection = {
    connectionString: databaseUrl,
    schema: config.embeddedDatabase ? 'public' : 'bullmq',
    migrate: true,
    max: 4,
  };
  return {
    backend: 'postgres',
    createQueue: (name) => new pg.Queue(name, { connection, prefix: config.queuePrefix }) as unknown as QueueLike,
    createWorker: (name, processor, concurrency) =>
      new pg.Worker(name, processor, {
        connection,
        prefix: config.queuePrefix,
        concurrency,
        drainDelay: config.embeddedDatabase ? 1 : 5,
      }) as unknown as WorkerLike,
    close: async () => undefined,
  };
}

export function createQueueFactory(config: AppConfig): QueueFactory {
  if (config.redisUrl) return redisFactory(config, config.redisUrl);
  if (!config.databaseUrl) throw new Error('The queue needs REDIS_URL or a database URL');
  return postgresFactory(config, config.databaseUrl);
}
