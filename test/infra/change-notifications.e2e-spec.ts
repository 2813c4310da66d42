import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { loadConfig, withDatabaseUrl } from '../../src/config/app-config';
import {
  CACHE_INVALIDATION_CHANNEL,
  ChangeNotifications,
  LISTENER_APPLICATION_NAME,
} from '../../src/infra/database/change-notifications.service';
import { Database } from '../../src/infra/database/database.service';

/**
 * The process's one change listener, on the machine's PostgreSQL: each cache hears the kinds it
 * holds and nothing else, and hears a change only once it commits; a change's answer waits until
 * every listening process has applied it. (The embedded database runs no listener; the e2e suites
 * cover that mode.)
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
      // The answer came after the other process applied it: no wait here.
      expect(heardThere.filter((id) => id.endsWith(run))).toEqual([`kept ${run}`]);
      // Heard once here (at commit), not again when its own NOTIFY came back.
      await sleep(50);
      expect(heardHere).toEqual([`kept ${run}`]);
    } finally {
      await here.onModuleDestroy();
      await other.onModuleDestroy();
      await dataSource.destroy();
    }
  });

  describe('waits for every listening process to apply a change', () => {
    let dataSource: DataSource;
    let db: Database;
    let here: ChangeNotifications;
    const members: Client[] = [];

    beforeAll(async () => {
      dataSource = new DataSource({ type: 'postgres', url: databaseUrl, entities: [] });
      await dataSource.initialize();
      db = new Database(dataSource);
      here = new ChangeNotifications(withDatabaseUrl(loadConfig({}), databaseUrl!));
      here.subscribe({ onChange: {}, onGap: () => undefined });
      here.start();
      await until(() => here.isListening);
    });
    afterEach(async () => {
      for (const member of members.splice(0)) await member.end();
    });
    afterAll(async () => {
      await here.onModuleDestroy();
      await dataSource.destroy();
    });

    /**
     * A listening process as PostgreSQL sees it, driven by hand: it acknowledges a sync only when
     * `acknowledge` says so, after `delayMs`.
     */
    async function member(acknowledge: (token: string) => boolean, delayMs = 0): Promise<string[]> {
      const seen: string[] = [];
      const client = new Client({ connectionString: databaseUrl });
      await client.connect();
      members.push(client);
      client.on('notification', ({ payload }) => {
        if (!payload?.startsWith('sync:')) return;
        const token = payload.slice('sync:'.length);
        seen.push(token);
        if (!acknowledge(token)) return;
        setTimeout(
          () => void client.query('SELECT pg_notify($1, $2)', [CACHE_INVALIDATION_CHANNEL, `applied:${token}`]).catch(() => undefined),
          delayMs,
        );
      });
      await client.query(`LISTEN ${CACHE_INVALIDATION_CHANNEL}`);
      await client.query(`SET application_name TO '${LISTENER_APPLICATION_NAME}'`);
      return seen;
    }

    const timed = async (work: () => Promise<unknown>) => {
      const started = Date.now();
      await work();
      return Date.now() - started;
    };
    const change = (id: string) => db.transaction((em) => here.announce(em, 'key', id));

    it('answers once the slowest listener has acknowledged', async () => {
      await member(() => true, 300);
      await member(() => true, 0);
      const elapsed = await timed(() => change('slow'));
      expect(elapsed).toBeGreaterThanOrEqual(290);
      expect(elapsed).toBeLessThan(900);
    });

    it('takes one acknowledgement for every sync before it', async () => {
      // Acknowledges only the second of two changes in flight: that stands for the first too.
      let syncs = 0;
      await member(() => (syncs += 1) === 2, 100);
      const elapsed = await timed(() => Promise.all([change('first'), change('second')]));
      expect(syncs).toBe(2);
      expect(elapsed).toBeLessThan(900);
    });

    it('answers anyway, after its bound, when a listener is stalled', async () => {
      const seen = await member(() => false);
      const elapsed = await timed(() => change('stalled'));
      expect(seen).toHaveLength(1);
      expect(elapsed).toBeGreaterThanOrEqual(990);
      expect(elapsed).toBeLessThan(2_000);
    });

    it('does not wait for a connection that is not listening yet, nor for one of an earlier release', async () => {
      const connecting = new Client({ connectionString: databaseUrl, application_name: 'launch-change-listener-connecting' });
      const earlier = new Client({ connectionString: databaseUrl, application_name: 'launch-change-listener' });
      for (const client of [connecting, earlier]) {
        await client.connect();
        members.push(client);
      }
      await earlier.query(`LISTEN ${CACHE_INVALIDATION_CHANNEL}`);
      expect(await timed(() => change('alone'))).toBeLessThan(500);
    });

    it('does not wait for a rolled-back change', async () => {
      await member(() => false);
      const elapsed = await timed(() =>
        db
          .transaction(async (em) => {
            await here.announce(em, 'key', 'rolled back');
            throw new Error('abort');
          })
          .catch(() => undefined),
      );
      expect(elapsed).toBeLessThan(500);
    });
  });
});
