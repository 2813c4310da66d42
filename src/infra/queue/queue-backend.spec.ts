import { getDefaultBackendFactory, setDefaultBackendFactory } from 'bullmq';
import { loadConfig, withDatabaseUrl } from '../../config/app-config';
import { queueOptionsFor, workerOptionsFor } from './queue-backend';

const DATABASE = 'postgres://postgres@127.0.0.1:1/none';

/** A PostgreSQL-backed queue of the given mode, never connected (BullMQ connects on first use). */
function backendOf(env: Record<string, string>, databaseUrl: string) {
  const config = withDatabaseUrl(loadConfig({ PUBLIC_BASE_URL: 'https://launch.test', ...env }), databaseUrl);
  const options = queueOptionsFor(config);
  const backend = getDefaultBackendFactory()('probe', options);
  return { backend: backend as { maximumBlockTimeout?: number; close(): Promise<void> }, worker: workerOptionsFor(config) };
}

describe('queue backend options', () => {
  afterEach(() => setDefaultBackendFactory(undefined));

  it('caps an idle worker wait at one poll on the embedded database, whatever delayed job waits', async () => {
    // No DATABASE_URL in the environment: the embedded database, served at a loopback address.
    const { backend, worker } = backendOf({}, DATABASE);
    expect(backend.maximumBlockTimeout).toBe(1);
    expect(worker.drainDelay).toBe(1);
    await backend.close();
  });

  it('leaves BullMQ its own wait on a PostgreSQL server, where NOTIFY wakes workers', async () => {
    const { backend, worker } = backendOf({ DATABASE_URL: DATABASE }, DATABASE);
    expect(backend.maximumBlockTimeout).toBeGreaterThan(1);
    expect(worker.drainDelay).toBeUndefined();
    await backend.close();
  });

  it('puts the Redis backend back as the process default when REDIS_URL is set', async () => {
    const { backend } = backendOf({}, DATABASE);
    const polling = getDefaultBackendFactory();
    const config = loadConfig({ PUBLIC_BASE_URL: 'https://launch.test', DATABASE_URL: DATABASE, REDIS_URL: 'redis://127.0.0.1:1' });
    expect(queueOptionsFor(config).connection).toMatchObject({ url: 'redis://127.0.0.1:1' });
    expect(getDefaultBackendFactory()).not.toBe(polling);
    await backend.close();
  });

  it("keeps BullMQ's 30 s job lock and stalled check unless a fault test shortens them (TEST_JOB_LEASE_MS)", () => {
    const base = { PUBLIC_BASE_URL: 'https://launch.test', DATABASE_URL: DATABASE, REDIS_URL: 'redis://127.0.0.1:1' };
    const plain = workerOptionsFor(loadConfig(base), 'webhooks');
    expect([plain.lockDuration, plain.stalledInterval, plain.concurrency]).toEqual([undefined, undefined, 64]);
    const short = workerOptionsFor(loadConfig({ ...base, TEST_JOB_LEASE_MS: '5000' }), 'webhooks');
    expect([short.lockDuration, short.stalledInterval, short.concurrency]).toEqual([5_000, 5_000, 64]);
  });
});
