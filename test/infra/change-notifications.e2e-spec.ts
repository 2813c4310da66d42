import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { loadConfig, withDatabaseUrl } from '../../src/config/app-config';
import { CACHE_INVALIDATION_CHANNEL, ChangeNotifications } from '../../src/infra/database/change-notifications';

/**
 * The process's one change listener, on the machine's PostgreSQL: each cache hears the kinds it
 * holds and nothing else. (The embedded database runs no listener; the e2e suites cover that mode.)
 */
const databaseUrl = process.env.DATABASE_URL;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

(databaseUrl ? describe : describe.skip)('ChangeNotifications', () => {
  let changes: ChangeNotifications;
  let sender: Client;

  beforeAll(async () => {
    changes = new ChangeNotifications(withDatabaseUrl(loadConfig({}), databaseUrl!));
    sender = new Client({ connectionString: databaseUrl });
    await sender.connect();
  });
  afterAll(async () => {
    await changes.onModuleDestroy();
    await sender.end();
  });

  it('routes each payload by its kind to the caches that hold it, and reports the gap at LISTEN', async () => {
    // Ids of this run only, in case anything else notifies on the shared database.
    const run = randomBytes(4).toString('hex');
    const heard: string[] = [];
    changes.subscribe({
      onChange: { 'key:': (id) => heard.push(`keys ${id}`), 'project:': (id) => heard.push(`keys project ${id}`) },
      onGap: () => heard.push('keys gap'),
    });
    changes.subscribe({ onChange: { 'signing-secret:': (id) => heard.push(`secrets ${id}`) }, onGap: () => heard.push('secrets gap') });
    changes.subscribe({ onChange: { 'done:': (id) => heard.push(`done ${id}`) }, onGap: () => undefined });
    const until = async (condition: () => boolean) => {
      const deadline = Date.now() + 5_000;
      while (!condition() && Date.now() < deadline) await sleep(10);
    };

    expect(changes.isListening).toBe(false);
    changes.start();
    await until(() => changes.isListening);
    expect(heard).toEqual(['keys gap', 'secrets gap']);

    const sent = ['key:abc', 'webhook:w1', 'no colon', 'signing-secret:prj_1', 'project:prj_2', 'key:a:b', 'done:'];
    for (const payload of sent) await sender.query('SELECT pg_notify($1, $2)', [CACHE_INVALIDATION_CHANNEL, `${payload}${run}`]);
    // Notifications arrive in order: once the last is heard, every earlier one was dispatched.
    await until(() => heard.includes(`done ${run}`));
    expect(heard.filter((line) => line.endsWith(run) || line.endsWith('gap'))).toEqual([
      'keys gap',
      'secrets gap',
      `keys abc${run}`,
      `secrets prj_1${run}`,
      `keys project prj_2${run}`,
      `keys a:b${run}`,
      `done ${run}`,
    ]);
  });
});
