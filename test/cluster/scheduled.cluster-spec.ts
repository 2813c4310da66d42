import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Cluster, startCluster } from '../support/cluster';
import { LOOPBACK_WEBHOOKS_ENV, createProject, poll, range, sleep, sql, untilAccepted } from './scenario-support';

const ENTRIES = 30;
const NOTIFICATIONS = 30;
/** How far ahead the releases are scheduled: room to create 60 of them on a busy machine first. */
const LEAD_MS = 6_000;

/** The counts that must come out exactly once per scheduled entry or notification. */
interface Tally {
  entriesPublished: number;
  publications: string;
  events: number;
  eventsPerEntryMax: number;
  deliveries: number;
  deliveriesDelivered: number;
  broadcasts: number;
  mailings: number;
  notificationsVisible: number;
  releases: string;
  recipients: number;
}

describe.each([
  ['PostgreSQL + Redis', true],
  ['PostgreSQL alone', false],
])('scheduled entries and notifications released by two racing workers (%s)', (mode, redis) => {
  let cluster: Cluster;
  let receiver: Server;

  beforeAll(async () => {
    receiver = createServer((_req, res) => res.writeHead(200).end('ok'));
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    cluster = await startCluster({
      apis: 2,
      workers: 2,
      redis,
      env: {
        ...LOOPBACK_WEBHOOKS_ENV,
        // A release claimed by a killed worker is taken over after 10 s instead of its 60 s lease.
        TEST_JOB_LEASE_MS: '10000',
        DATABASE_POOL_SIZE: '5',
      },
    });
  });
  afterAll(async () => {
    await cluster?.close();
    receiver?.closeAllConnections();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  /**
   * A project with a webhook endpoint for published entries, ENTRIES entries and NOTIFICATIONS
   * notifications (to two users each) all due at `dueAt`, created over both API processes.
   */
  async function scheduleAll(name: string): Promise<{ projectId: string; dueAt: number }> {
    const { projectId, secretKey } = await createProject(cluster, name);
    const port = (receiver.address() as AddressInfo).port;
    await cluster
      .api()
      .as(secretKey)
      .post('/v1/webhooks')
      .send({ url: `http://127.0.0.1:${port}/${name}`, events: ['changelog.entry.published'] })
      .expect(201);
    const dueAt = Date.now() + LEAD_MS;
    const at = new Date(dueAt).toISOString();
    const created = await Promise.all([
      ...range(ENTRIES).map((n) =>
        untilAccepted(() =>
          cluster
            .api()
            .as(secretKey)
            .post('/v1/changelog/entries')
            .set('Idempotency-Key', `entry-${n}`)
            .send({
              title: `Release ${n}`,
              body_markdown: 'Faster **exports**.',
              category: 'feature',
              scheduled_at: at,
              notify_in_app: true,
              notify_subscribers: true,
            }),
        ),
      ),
      ...range(NOTIFICATIONS).map((n) =>
        untilAccepted(() =>
          cluster
            .api()
            .as(secretKey)
            .post('/v1/notifications')
            .set('Idempotency-Key', `notification-${n}`)
            .send({ title: `Heads up ${n}`, body: 'Maintenance tonight.', user_ids: [`a${n}`, `b${n}`], send_at: at }),
        ),
      ),
    ]);
    expect(created.filter((res) => res.status !== 201).map((res) => [res.status, res.body])).toEqual([]);
    expect(Date.now()).toBeLessThan(dueAt);
    return { projectId, dueAt };
  }

  async function tally(projectId: string): Promise<Tally> {
    const [row] = await sql<Tally>(
      cluster,
      `SELECT
         (SELECT count(*)::int FROM changelog_entries WHERE project_id = $1 AND status = 'published') AS "entriesPublished",
         (SELECT coalesce(string_agg(s, ' ' ORDER BY s), '') FROM (
            SELECT status || ':' || count(*) AS s FROM changelog_publications WHERE project_id = $1 GROUP BY status) p) AS publications,
         (SELECT count(*)::int FROM events WHERE project_id = $1 AND type = 'changelog.entry.published') AS events,
         (SELECT coalesce(max(n), 0)::int FROM (
            SELECT count(*) AS n FROM events WHERE project_id = $1 AND type = 'changelog.entry.published'
            GROUP BY data->>'entry_id') e) AS "eventsPerEntryMax",
         (SELECT count(*)::int FROM webhook_deliveries WHERE project_id = $1) AS deliveries,
         (SELECT count(*)::int FROM webhook_deliveries WHERE project_id = $1 AND status = 'delivered') AS "deliveriesDelivered",
         (SELECT count(*)::int FROM notifications WHERE project_id = $1 AND changelog_entry_id IS NOT NULL) AS broadcasts,
         (SELECT count(*)::int FROM changelog_mailings WHERE project_id = $1) AS mailings,
         (SELECT count(*)::int FROM notifications WHERE project_id = $1 AND changelog_entry_id IS NULL AND status = 'visible')
           AS "notificationsVisible",
         (SELECT coalesce(string_agg(s, ' ' ORDER BY s), '') FROM (
            SELECT status || ':' || count(*) AS s FROM notification_releases WHERE project_id = $1 GROUP BY status) r) AS releases,
         (SELECT count(*)::int FROM notification_recipients WHERE project_id = $1) AS recipients`,
      [projectId],
    );
    return row;
  }

  const EXACTLY_ONCE: Tally = {
    entriesPublished: ENTRIES,
    publications: `published:${ENTRIES}`,
    events: ENTRIES,
    eventsPerEntryMax: 1,
    deliveries: ENTRIES,
    deliveriesDelivered: ENTRIES,
    broadcasts: ENTRIES,
    mailings: ENTRIES,
    notificationsVisible: NOTIFICATIONS,
    releases: `released:${NOTIFICATIONS}`,
    recipients: NOTIFICATIONS * 2,
  };

  /** Waits until everything is out, then one sweeper pass longer (5 s), so a late double would show. */
  async function expectReleasedOnce(projectId: string, withinMs: number): Promise<number> {
    const started = Date.now();
    await poll(
      'released',
      () => tally(projectId),
      (now) => now.entriesPublished === ENTRIES && now.notificationsVisible === NOTIFICATIONS && now.deliveriesDelivered === ENTRIES,
      withinMs,
    );
    const took = Date.now() - started;
    await sleep(6_000);
    expect(await tally(projectId)).toEqual(EXACTLY_ONCE);
    return took;
  }

  /** Attempts per publication and release row: 1 each unless a worker died holding one. */
  async function attempts(projectId: string): Promise<{ attempts: number; n: number }[]> {
    return sql(
      cluster,
      `SELECT attempts, count(*)::int AS n FROM (
         SELECT attempts FROM changelog_publications WHERE project_id = $1
         UNION ALL SELECT attempts FROM notification_releases WHERE project_id = $1) a
       GROUP BY attempts ORDER BY attempts`,
      [projectId],
    );
  }

  it('releases each of 30 entries and 30 notifications exactly once while both workers race for them', async () => {
    const { projectId, dueAt } = await scheduleAll('race');
    await sleep(Math.max(0, dueAt - Date.now()));
    await expectReleasedOnce(projectId, 30_000);
    expect(await attempts(projectId)).toEqual([{ attempts: 1, n: ENTRIES + NOTIFICATIONS }]);
  });

  it('releases each exactly once when a worker is SIGKILLed at the due time', async () => {
    const { projectId, dueAt } = await scheduleAll('kill');
    await sleep(Math.max(0, dueAt - Date.now()));
    expect(await cluster.workers[0].stop('SIGKILL')).toBe('SIGKILL');
    // Rows the killed worker had claimed wait out the 10 s lease; the other worker does the rest.
    await expectReleasedOnce(projectId, 45_000);
    const counted = await attempts(projectId);
    expect(counted.reduce((sum, row) => sum + row.n, 0)).toBe(ENTRIES + NOTIFICATIONS);
    expect(counted.every((row) => row.attempts === 1 || row.attempts === 2)).toBe(true);
    const retaken = counted.find((row) => row.attempts === 2)?.n ?? 0;
    console.log(`[scheduled ${mode}] worker SIGKILLed at the due time: ${retaken} releases it had claimed taken over, none doubled`);
    await cluster.restart(cluster.workers[0]);
  });

  (redis ? it : it.skip)('finishes the releases through the sweepers when Redis loses every job just before the due time', async () => {
    const { projectId, dueAt } = await scheduleAll('flush');
    await sleep(Math.max(0, dueAt - Date.now() - 1_000));
    const lost = await cluster.flushRedis();
    // Every delayed release and publication job was in Redis: they are gone, only the rows know.
    expect(lost).toBeGreaterThan(0);
    const took = await expectReleasedOnce(projectId, 30_000);
    expect(await attempts(projectId)).toEqual([{ attempts: 1, n: ENTRIES + NOTIFICATIONS }]);
    console.log(
      `[scheduled ${mode}] Redis flushed 1 s before the due time (${lost} keys): all released ${(took / 1000).toFixed(1)} s after`,
    );
  });
});
