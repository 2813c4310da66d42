import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { loadConfig, withDatabaseUrl } from '../../src/config/app-config';
import { CACHE_INVALIDATION_CHANNEL, ChangeNotifications } from '../../src/infra/database/change-notifications';
import { Database } from '../../src/infra/database/database';

/**
 * The process's one change listener, on the machine's PostgreSQL: each cache hears the kinds it
 * holds and nothing else, and hears a change only once it commits. (The embedded database runs no
 * listener; the e2e suites cover that mode.)
 */
const databaseUrl = process.env.DATABASE_URL;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const until = async (condition: () => boolean) => {
  const deadline = Date.now() + 5_000;
  while (!condition() && Date.now() < deadline) await sleep(10);
};

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
      onChange: { key: (id) => heard.push(`keys ${id}`), project: (id) => heard.push(`keys project ${id}`) },
      onGap: () => heard.push('keys gap'),
    });
    changes.subscribe({ onChange: { 'signing-secret': (id) => heard.push(`secrets ${id}`) }, onGap: () => heard.push('secrets gap') });
    changes.subscribe({ onChange: { done: (id) => heard.push(`done ${id}`) }, onGap: () => undefined });

    expect(changes.isListening).toBe(false);
    changes.start();
    await until(() => changes.isListening);
    expect(heard).toEqual(['keys gap', 'secrets gap']);

    const sent = ['key:abc', 'webhook:w1', 'no colon', 'signing-secret:prj_1', 'project:prj_2', 'key:a:b', 'constructor:x', 'done:'];
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

  it('announces a change to this process at commit and to the others through NOTIFY, and a rolled-back one to nobody', async () => {
    const run = randomBytes(4).toString('hex');
    const dataSource = new DataSource({ type: 'postgres', url: databaseUrl, entities: [] });
    await dataSource.initialize();
    const other = new ChangeNotifications(withDatabaseUrl(loadConfig({}), databaseUrl!));
    // Started by its first announce; its caches hear its changes after commit, not again through NOTIFY.
    const here = new ChangeNotifications(withDatabaseUrl(loadConfig({}), databaseUrl!));
    try {
      const db = new Database(dataSource);
      const heardHere: string[] = [];
      const heardThere: string[] = [];
      here.subscribe({ onChange: { key: (id) => heardHere.push(id) }, onGap: () => undefined });
      other.subscribe({ onChange: { key: (id) => heardThere.push(id) }, onGap: () => undefined });
      other.start();
      await until(() => other.isListening);

      await db
        .transaction(async (em) => {
          await here.announce(em, 'key', `rolled back ${run}`);
          throw new Error('abort');
        })
        .catch(() => undefined);
      await db.transaction(async (em) => {
        await here.announce(em, 'key', `kept ${run}`);
        // Not before COMMIT: a lookup now would still read the old row.
        expect(heardHere).toEqual([]);
      });
      expect(heardHere).toEqual([`kept ${run}`]);
      await until(() => heardThere.includes(`kept ${run}`));
      expect(heardThere.filter((id) => id.endsWith(run))).toEqual([`kept ${run}`]);
    } finally {
      await here.onModuleDestroy();
      await other.onModuleDestroy();
      await dataSource.destroy();
    }
  });
});
