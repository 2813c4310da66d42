import type { Response } from 'supertest';
import { POLL_COUNTER_LEASE } from '../../src/infra/rate-limit/redis-window-counters';
import { PlanName, planLimit } from '../../src/projects/plans';
import { provisionOwner } from '../support/dashboard-owner';
import { TestIdentityProvider } from '../support/identity-provider';
import { userHashOf } from '../support/notification-seed';
import { Cluster, startCluster } from '../support/cluster';

// Kept small so the burst that crosses it is quick; the bell's per-user limit is the plan's own.
const BROWSER_LIMIT = 10;
const range = (count: number) => Array.from({ length: count }, (_, index) => index);

/** Statuses and error codes of a burst, counted: { '201': n, '403 PLAN_LIMIT_REACHED': m }. */
function tally(responses: Response[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const res of responses) {
    const label = res.status < 300 ? String(res.status) : `${res.status} ${res.body?.error?.code}`;
    counts[label] = (counts[label] ?? 0) + 1;
  }
  return counts;
}

describe.each([
  ['PostgreSQL + Redis', true],
  ['PostgreSQL alone', false],
])('plan caps, the notification quota and rate limits over two API processes (%s)', (_mode, redis) => {
  let cluster: Cluster;
  let idp: TestIdentityProvider;

  beforeAll(async () => {
    idp = await TestIdentityProvider.start();
    cluster = await startCluster({
      apis: 2,
      workers: 2,
      redis,
      env: {
        ...idp.env(),
        // Endpoints point at this machine; no delivery is made (no subscribed event happens).
        WEBHOOK_ALLOW_INSECURE_URLS: 'true',
        BROWSER_RATE_LIMIT: String(BROWSER_LIMIT),
        TRUST_PROXY: 'loopback',
        // PostgreSQL is shared with other suites: four processes at the default 10 each crowd it out.
        DATABASE_POOL_SIZE: '3',
      },
    });
  });
  afterAll(async () => {
    await cluster?.close();
    await idp?.close();
  });

  /** `count` requests made at once, request i on API process i % 2. */
  const burst = (count: number, request: (api: ReturnType<Cluster['apiAt']>, i: number) => PromiseLike<Response>) =>
    Promise.all(range(count).map((i) => request(cluster.apiAt(i % 2), i)));

  let owners = 0;
  /**
   * A project on `plan` of a new owner, provisioned through process 0 (no CLI: each would be one
   * more process and pool on a PostgreSQL that other suites share). No process has read it yet, so
   * setting its plan in the database needs no announcement.
   */
  async function project(plan: PlanName) {
    owners += 1;
    const created = await provisionOwner(cluster.apiAt(0), idp, `owner-${owners}`, `owner${owners}@x.io`, `Owner ${owners}`);
    await cluster.sql('UPDATE projects SET plan = $2 WHERE id = $1 OR live_project_id = $1', [created.projectId, plan]);
    return created;
  }

  const countRows = async (table: string, projectId: string, where = 'true') =>
    (await cluster.sql<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE project_id = $1 AND ${where}`, [projectId]))[0].n;

  it('lets exactly the rest of the monthly notification quota through when 30 sends race for the last 10', async () => {
    const { projectId, secretKey } = await project('free');
    const limit = planLimit('free', 'notificationsPerMonth');
    const month = new Date().toISOString().slice(0, 7);
    await cluster.sql('INSERT INTO notification_usage (project_id, month, sent) VALUES ($1, $2, $3)', [projectId, month, limit - 10]);

    const responses = await burst(30, (api, i) =>
      api
        .as(secretKey)
        .post('/v1/notifications')
        .send({ user_id: `u${i}`, title: 'Your export is ready', body: 'The PDF of March is ready.' }),
    );
    expect(tally(responses)).toEqual({ '201': 10, '403 PLAN_LIMIT_REACHED': 20 });
    expect(await countRows('notifications', projectId)).toBe(10);
    const [usage] = await cluster.sql<{ sent: number }>('SELECT sent FROM notification_usage WHERE project_id = $1 AND month = $2', [
      projectId,
      month,
    ]);
    expect(usage.sent).toBe(limit);
    const shown = await cluster.apiAt(1).as(secretKey).get('/v1/notifications/usage').expect(200);
    expect(shown.body.data).toEqual({ month, sent: limit, limit, remaining: 0 });
  });

  it('publishes exactly the Free plan’s 25 changelog entries of 45 created at once', async () => {
    const { projectId, secretKey } = await project('free');
    const cap = planLimit('free', 'changelogPublishedEntries') as number;
    const responses = await burst(cap + 20, (api, i) =>
      api
        .as(secretKey)
        .post('/v1/changelog/entries')
        .send({ title: `Race ${i}`, body_markdown: 'You can now **export** reports.', category: 'feature' }),
    );
    expect(tally(responses)).toEqual({ '201': cap, '403 PLAN_LIMIT_REACHED': 20 });
    expect(await countRows('changelog_entries', projectId, "status IN ('published', 'scheduled')")).toBe(cap);
    expect(await countRows('changelog_entries', projectId)).toBe(cap);
  });

  it('creates exactly the Builder plan’s 5 webhook endpoints of 25 asked for at once', async () => {
    const { projectId, secretKey } = await project('builder');
    const cap = planLimit('builder', 'webhookEndpoints');
    const responses = await burst(cap + 20, (api, i) =>
      api
        .as(secretKey)
        .post('/v1/webhooks')
        .send({ url: `http://127.0.0.1:9/hooks/${i}`, events: ['feedback.created'] }),
    );
    expect(tally(responses)).toEqual({ '201': cap, '403 WEBHOOK_LIMIT_REACHED': 20 });
    expect(await countRows('webhook_endpoints', projectId)).toBe(cap);
  });

  it('gives an account exactly as many projects as its highest plan allows when 30 are created at once', async () => {
    // The account's plan is the highest among its projects: Builder's cap, of which the first is one.
    const { token, accountId } = await project('builder');
    const cap = planLimit('builder', 'projectsPerAccount');
    const responses = await burst(30, (api, i) =>
      api
        .as(token)
        .post('/v1/dashboard/projects')
        .send({ name: `Race ${i}` }),
    );
    expect(tally(responses)).toEqual({ '201': cap - 1, '403 PROJECT_LIMIT_REACHED': 30 - (cap - 1) });
    const [rows] = await cluster.sql<{ n: number }>('SELECT count(*)::int AS n FROM projects WHERE account_id = $1', [accountId]);
    expect(rows.n).toBe(cap);
    const listed = await cluster.apiAt(1).as(token).get('/v1/dashboard/projects').expect(200);
    expect(listed.body.data).toHaveLength(cap);
  });

  it('counts the per-address browser limit across both processes', async () => {
    const { publishableKey } = await project('free');
    const address = redis ? '198.51.100.7' : '198.51.100.8';
    const responses = await burst(3 * BROWSER_LIMIT, (api) =>
      api.as(publishableKey).get('/v1/changelog/widget/entries').set('X-Forwarded-For', address),
    );
    // Counted in Redis, or without it in PostgreSQL's rate_limit_counters: the limit once, not once per process.
    expect(tally(responses)).toEqual({ '200': BROWSER_LIMIT, '429 RATE_LIMITED': 2 * BROWSER_LIMIT });
    const perProcess = [0, 1].map((p) => responses.filter((res, i) => i % 2 === p && res.status === 200).length);
    expect(perProcess[0] + perProcess[1]).toBe(BROWSER_LIMIT);
  });

  it("counts one person's bell reads across both processes", async () => {
    const { projectId, secretKey, publishableKey } = await project('free');
    const created = await cluster.apiAt(0).as(secretKey).post('/v1/notifications/signing-secret').expect(201);
    const secret = created.body.data.signing_secret as string;
    const limit = planLimit('free', 'bellReadsPerUserPerHour');
    // A different address per call (the browser limit counts per address), so only the per-person count refuses.
    let calls = 0;
    const read = (api: ReturnType<Cluster['apiAt']>) => {
      calls += 1;
      return api
        .as(publishableKey)
        .get('/v1/notifications/unread/count?user_id=ada')
        .set('X-Service-User-Hash', userHashOf('ada', secret))
        .set('X-Forwarded-For', `203.0.${Math.floor(calls / 250)}.${calls % 250}`);
    };
    const responses = await burst(limit + 20, (api) => read(api));
    const counts = tally(responses);
    // With Redis, a process allows a person's reads from a lease of a few hits taken at once: when
    // the burst's calls to one process end while it holds some, the other was refused that many
    // early (the lease's contract: never over the limit, at most a lease under it). Those hits are
    // allowed to that process's next calls, so the limit is spent exactly once over both.
    // A lease's first hit goes to the call that took it: a peer holds at most the rest.
    const leaseMost = redis ? POLL_COUNTER_LEASE - 1 : 0;
    expect(counts['200']).toBeLessThanOrEqual(limit);
    expect(counts['200']).toBeGreaterThanOrEqual(limit - leaseMost);
    expect(counts['200'] + counts['429 RATE_LIMITED']).toBe(limit + 20);
    const after: Response[] = [];
    for (const p of [0, 1]) for (let i = 0; i < POLL_COUNTER_LEASE; i += 1) after.push(await read(cluster.apiAt(p)));
    expect(counts['200'] + after.filter((res) => res.status === 200).length).toBe(limit);
    expect(after.filter((res) => res.status !== 200).every((res) => res.body.error.code === 'RATE_LIMITED')).toBe(true);
    const [seen] = await cluster.sql<{ n: number }>('SELECT count(*)::int AS n FROM bell_users WHERE project_id = $1', [projectId]);
    expect(seen.n).toBe(1);
  });
});
