import { type ConnectionOptions, type QueueOptions, type WorkerOptions, createPostgresBackend, setDefaultBackendFactory } from 'bullmq';
import type { AppConfig } from '../../config/app-config';
import { queueSchemaOf } from './queue-schema';

export type QueueBackend = 'redis' | 'postgres';

const WORKER_CONCURRENCY = 8;
/**
 * Queues whose jobs mostly wait on someone else's server get more slots: a webhook attempt may
 * wait up to WEBHOOK_TIMEOUT_MS on a slow receiver, and eight slow receivers must not stall every
 * other project's deliveries (issue 11 item 9: ≥ 1,000 deliveries/s from one worker).
 */
const QUEUE_CONCURRENCY: Readonly<Record<string, number>> = { webhooks: 64 };

/** How long an idle worker on the embedded database waits before it looks for jobs again (seconds). */
const EMBEDDED_POLL_SECONDS = 1;

/**
 * The PostgreSQL backend as it is, except that a worker never blocks longer than one poll.
 *
 * BullMQ's PostgreSQL backend wakes workers by NOTIFY and, while a delayed job exists, blocks until
 * that job is due (up to an hour), ignoring drainDelay. On the embedded database NOTIFY does not
 * cross connections, so one notification scheduled an hour ahead would leave every job added
 * meanwhile waiting for that hour.
 */
const createPollingPostgresBackend: typeof createPostgresBackend = (name, opts, factoryOptions) => {
  const backend = createPostgresBackend(name, opts, factoryOptions);
  // An own property shadows the class's getter, which is all the Worker reads.
  Object.defineProperty(backend, 'maximumBlockTimeout', { value: EMBEDDED_POLL_SECONDS });
  return backend;
};

function queueBackendOf(config: AppConfig): QueueBackend {
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
    // Producers (every request's after-commit enqueue): each command has a deadline, so a silent
    // Redis fails the enqueue quickly and the sweeper wakes the row later.
    return { connection: redisConnection(config, config.deadlines.redisCommandMs), prefix: config.queuePrefix };
  }
  if (!config.databaseUrl) throw new Error('The queue needs REDIS_URL or a database URL');
  setDefaultBackendFactory(config.embeddedDatabase ? createPollingPostgresBackend : createPostgresBackend);
  const connection = {
    connectionString: config.databaseUrl,
    schema: queueSchemaOf(config),
    // Migrated once per process before the queues exist (migrateQueueSchema); each connection only checks.
    migrate: false,
    max: 4,
    // As for the service's own pool (database.module.ts): no wait limit on the embedded database.
    ...(config.embeddedDatabase ? {} : { connectionTimeoutMillis: config.deadlines.databaseConnectMs }),
  };
  return { connection: connection as unknown as ConnectionOptions, prefix: config.queuePrefix };
}

/**
 * On the embedded database LISTEN/NOTIFY does not cross connections, so an idle PostgreSQL-backed
 * worker only notices a new job when its wait ends: wait 1 s there instead of BullMQ's 5 s.
 */
export function workerOptionsFor(
  config: AppConfig,
  queue?: string,
): Pick<WorkerOptions, 'concurrency' | 'drainDelay'> & Partial<Pick<WorkerOptions, 'connection' | 'lockDuration' | 'stalledInterval'>> {
  const polling = queueBackendOf(config) === 'postgres' && config.embeddedDatabase;
  // Workers wait on Redis with blocking commands for up to drainDelay (5 s), so their connection
  // has no command deadline; they hold no request, and BullMQ reconnects them by itself.
  const connection = config.redisUrl ? { connection: redisConnection(config, null) } : {};
  // The embedded database serves one session: 64 slots polling it would only crowd out other queues.
  const concurrency = (!polling && queue && QUEUE_CONCURRENCY[queue]) || WORKER_CONCURRENCY;
  // A job held by a killed worker waits for BullMQ's stalled check (every 30 s, locks of 30 s)
  // before it runs again; a cluster test shortens both to see the takeover in seconds.
  const lease = config.testJobLeaseMs ? { lockDuration: config.testJobLeaseMs, stalledInterval: config.testJobLeaseMs } : {};
  return { concurrency, ...(polling ? { drainDelay: EMBEDDED_POLL_SECONDS } : {}), ...connection, ...lease };
}

/** The longest wait between two attempts to reach Redis again. */
const REDIS_RECONNECT_MAX_MS = 2_000;

function redisConnection(config: AppConfig, commandTimeoutMs: number | null): ConnectionOptions {
  return {
    url: config.redisUrl ?? undefined,
    // BullMQ needs maxRetriesPerRequest null on connections that block.
    maxRetriesPerRequest: null,
    connectTimeout: Math.max(1_000, config.deadlines.redisCommandMs),
    // BullMQ's own schedule backs off to 20 s between attempts, so after an outage of a few seconds
    // jobs would wait up to 20 s for a Redis that is back: try again within 2 s instead.
    retryStrategy: (attempt: number) => Math.min(attempt * 200, REDIS_RECONNECT_MAX_MS),
    ...(commandTimeoutMs === null ? {} : { commandTimeout: commandTimeoutMs }),
  };
}
