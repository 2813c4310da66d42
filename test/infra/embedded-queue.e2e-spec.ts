import { Queue, Worker, setDefaultBackendFactory } from 'bullmq';
import { loadConfig, withDatabaseUrl } from '../../src/config/app-config';
import { EmbeddedPostgres, startEmbeddedPostgres } from '../../src/infra/database/embedded-postgres';
import { queueOptionsFor, workerOptionsFor } from '../../src/infra/queue/queue-backend';
import { migrateQueueSchema } from '../../src/infra/queue/queue-schema';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const HOUR = 3_600_000;

/**
 * The queues on the embedded database, in every test mode (CI runs the suites on PostgreSQL +
 * Redis, so this is where the embedded queue path is checked there). NOTIFY does not cross the
 * embedded database's connections: a worker must find new jobs by itself, even while a job
 * scheduled far ahead would have it wait until that job is due.
 */
describe('queues on the embedded database', () => {
  let embedded: EmbeddedPostgres;
  let queue: Queue;
  let worker: Worker;
  const processed: string[] = [];

  beforeAll(async () => {
    embedded = await startEmbeddedPostgres({ dataDir: 'memory' });
    // No DATABASE_URL: the embedded mode, as `npm start` runs without configuration.
    const config = withDatabaseUrl(loadConfig({ PUBLIC_BASE_URL: 'https://launch.test', QUEUE_PREFIX: 'embedded' }), embedded.url);
    await migrateQueueSchema(config);
    const options = queueOptionsFor(config);
    queue = new Queue('probe', options);
    worker = new Worker('probe', async (job) => void processed.push(job.name), { ...options, ...workerOptionsFor(config) });
    await worker.waitUntilReady();
    // A fresh embedded database runs initdb in WebAssembly: seconds when quiet, up to three minutes
    // beside the rest of the suite on two cores (measured in CI).
  }, 300_000);

  afterAll(async () => {
    await worker?.close();
    await queue?.close();
    await embedded?.stop();
    setDefaultBackendFactory(undefined);
  });

  it('runs a job added after one scheduled an hour ahead within seconds, not when that one is due', async () => {
    await queue.add('tomorrow', {}, { delay: HOUR });
    // Long enough for the idle worker to start waiting with the delayed job in view.
    await sleep(1_500);
    await queue.add('now', {});
    const deadline = Date.now() + 5_000;
    while (!processed.includes('now')) {
      if (Date.now() > deadline) throw new Error('the job added now was not run within 5 s');
      await sleep(50);
    }
    expect(processed).toEqual(['now']);
    expect(await queue.getDelayedCount()).toBe(1);
  });
});
