import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { ServerProcess, runCli, startServerProcess } from '../support/server-process';
import { TestDatabase, createTestDatabase } from '../support/test-database';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
// A child-process test may wait for the run's background build (global setup).
const CHILD_PROCESS_TEST_TIMEOUT_MS = 180_000;
// Within the per-address caps (60 views, 20 clicks per entry and hour): every request counts.
const WIDGET_SEEN = 15;
const PAGE_SEEN = 10;
const WIDGET_CLICKS = 7;
const PAGE_CLICKS = 4;

interface Totals {
  widget_views: number;
  page_views: number;
  cta_clicks: number;
}

async function totals(db: TestDatabase): Promise<Record<string, Totals>> {
  const client = new Client({ connectionString: db.url });
  await client.connect();
  try {
    const { rows } = await client.query<Totals & { entry_id: string }>(
      `SELECT entry_id, sum(widget_views)::int AS widget_views, sum(page_views)::int AS page_views, sum(cta_clicks)::int AS cta_clicks
       FROM changelog_entry_counts GROUP BY entry_id ORDER BY entry_id`,
    );
    return Object.fromEntries(rows.map(({ entry_id, ...counts }) => [entry_id, counts]));
  } finally {
    await client.end();
  }
}

async function call(server: ServerProcess, path: string, key: string | null, body: object): Promise<number> {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: JSON.stringify(body),
  });
  return res.status;
}

/**
 * Counts survive kill -9: each request's counts are in Redis (REDIS_URL) or in the database's
 * buffer table before it answers, and the restarted service adds them to the daily counters once.
 */
describe.each([
  ['with REDIS_URL (counts buffered in Redis)', true],
  ['without Redis (counts buffered in PostgreSQL)', false],
])('engagement across a kill -9 %s', (_mode, withRedis) => {
  let db: TestDatabase;
  let server: ServerProcess | undefined;
  let env: Record<string, string>;

  beforeAll(async () => {
    db = await createTestDatabase();
    const redisUrl = process.env.REDIS_URL;
    if (withRedis && !redisUrl) throw new Error('REDIS_URL is not set');
    env = {
      DATABASE_URL: db.url,
      QUEUE_PREFIX: `t_${randomBytes(6).toString('hex')}`,
      BROWSER_RATE_LIMIT: '10000',
      ...(withRedis && redisUrl ? { REDIS_URL: redisUrl } : {}),
    };
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await db.drop();
  });

  it(
    'adds every view and click answered before the kill to the daily counters exactly once',
    async () => {
      const created = await runCli({ DATABASE_URL: db.url }, 'project:create', '--name', 'Crash', '--plan', 'indie');
      const [secretKey, publishableKey, slug] = [created.secret_key, created.publishable_key, created.project_slug].map(String);
      // No workers: nothing flushes the buffer before the kill, so every count is in it then.
      server = await startServerProcess({ ...env, WORKERS: 'off' });
      const entryIds: string[] = [];
      for (const title of ['First', 'Second']) {
        const res = await fetch(`${server.url}/v1/changelog/entries`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${secretKey}` },
          body: JSON.stringify({ title, body_markdown: 'Something changed.', category: 'feature' }),
        });
        expect(res.status).toBe(201);
        entryIds.push(((await res.json()) as { data: { id: string } }).data.id);
      }
      const [first, second] = entryIds;

      const statuses = await Promise.all([
        ...Array.from({ length: WIDGET_SEEN }, () =>
          call(server!, '/v1/changelog/widget/seen', publishableKey, { client_id: 'browser-one', entry_ids: entryIds }),
        ),
        ...Array.from({ length: PAGE_SEEN }, () => call(server!, `/public/changelog/${slug}/seen`, null, { entry_ids: entryIds })),
        ...Array.from({ length: WIDGET_CLICKS }, () =>
          call(server!, `/v1/changelog/widget/entries/${first}/click`, publishableKey, { client_id: 'browser-one' }),
        ),
        ...Array.from({ length: PAGE_CLICKS }, () => call(server!, `/public/changelog/${slug}/entries/${second}/click`, null, {})),
      ]);
      expect(new Set(statuses)).toEqual(new Set([200]));
      expect(await server.stop('SIGKILL')).toBe('SIGKILL');
      expect(await totals(db)).toEqual({});

      server = await startServerProcess(env);
      const expected = {
        [first]: { widget_views: WIDGET_SEEN, page_views: PAGE_SEEN, cta_clicks: WIDGET_CLICKS },
        [second]: { widget_views: WIDGET_SEEN, page_views: PAGE_SEEN, cta_clicks: PAGE_CLICKS },
      };
      for (const deadline = Date.now() + 15_000; Date.now() < deadline; await sleep(200)) {
        if (JSON.stringify(await totals(db)) === JSON.stringify(expected)) break;
      }
      expect(await totals(db)).toEqual(expected);
      // Later flushes find nothing left to add: no count is added twice.
      await sleep(2_500);
      expect(await totals(db)).toEqual(expected);
    },
    CHILD_PROCESS_TEST_TIMEOUT_MS,
  );
});
