import { readPublicChangelog } from '../../src/changelog/public/public-changelog.queries';
import { seedEntries, seedEntry } from '../support/changelog-seed';
import { SeededProject, TestApp } from '../support/test-app';

const PUBLIC_FIELDS = ['body_markdown', 'category', 'id', 'public_url', 'published_at', 'title', 'version'];

describe('GET /public/changelog/{project_slug}', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.close());
  afterEach(() => t.clock.reset());

  async function project(): Promise<SeededProject> {
    return t.seedProject({ plan: 'indie' });
  }

  it('lists exactly the public set with the seven fields, pinned first, then newest, then id', async () => {
    const { project: p } = await project();
    const { project: other } = await project();
    const now = t.clock.now().getTime();
    const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000);
    const older = await seedEntry(t, p.id, { title: 'Older', publishedAt: at(30), version: '1.0.0', category: 'fix' });
    const newest = await seedEntry(t, p.id, { title: 'Newest', publishedAt: at(1) });
    const pinned = await seedEntry(t, p.id, { title: 'Pinned old', publishedAt: at(90), pinned: true });
    const expiresLater = await seedEntry(t, p.id, { title: 'Expires later', publishedAt: at(10), expiresAt: at(-60) });
    // Two entries published at the same instant: the id breaks the tie (newest id first).
    const tieA = await seedEntry(t, p.id, { title: 'Tie A', publishedAt: at(20) });
    const tieB = await seedEntry(t, p.id, { title: 'Tie B', publishedAt: at(20) });
    await seedEntry(t, p.id, { title: 'Draft', status: 'draft' });
    await seedEntry(t, p.id, { title: 'Scheduled', status: 'scheduled', scheduledAt: at(-5) });
    await seedEntry(t, p.id, { title: 'Archived', status: 'archived', archivedAt: at(1) });
    await seedEntry(t, p.id, { title: 'Signed in', audience: 'signed_in' });
    await seedEntry(t, p.id, { title: 'Segment', audience: 'segment', segment: { match: 'all', rules: [] } });
    await seedEntry(t, p.id, { title: 'Expired', expiresAt: at(1) });
    await seedEntry(t, other.id, { title: 'Other project' });

    const res = await t.api.get(`/public/changelog/${p.slug}`).expect(200);
    expect(res.body.error).toBeNull();
    const ids = [pinned, newest, expiresLater, tieB, tieA, older].map((entry) => entry.id);
    expect([tieA.id, tieB.id].sort()).toEqual([tieA.id, tieB.id]);
    expect(res.body.data.map((entry: { id: string }) => entry.id)).toEqual(ids);
    for (const entry of res.body.data) expect(Object.keys(entry).sort()).toEqual(PUBLIC_FIELDS);
    expect(res.body.data[5]).toEqual({
      id: older.id,
      title: 'Older',
      body_markdown: 'Something changed.',
      version: '1.0.0',
      category: 'fix',
      published_at: older.publishedAt!.toISOString(),
      public_url: `https://launch.test/changelog/${p.slug}/${older.id}`,
    });
  });

  it('drops an entry once the injected clock passes its expires_at', async () => {
    const { project: p } = await project();
    const entry = await seedEntry(t, p.id, { expiresAt: new Date(t.clock.now().getTime() + 3_600_000) });
    expect((await t.api.get(`/public/changelog/${p.slug}`).expect(200)).body.data.map((e: { id: string }) => e.id)).toEqual([entry.id]);
    t.clock.advance(3_600_001);
    expect((await t.api.get(`/public/changelog/${p.slug}`).expect(200)).body.data).toEqual([]);
  });

  it('needs no key and answers any origin, with and without an Origin header', async () => {
    const { project: p } = await project();
    await seedEntry(t, p.id);
    const cross = await t.api.get(`/public/changelog/${p.slug}`).set('Origin', 'https://somewhere.example').expect(200);
    expect(cross.headers['access-control-allow-origin']).toBe('*');
    const server = await t.api.get(`/public/changelog/${p.slug}`).expect(200);
    expect(server.headers['access-control-allow-origin']).toBe('*');
    expect(server.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('filters by label slug; an unknown label lists nothing', async () => {
    const { project: p } = await project();
    const api = await seedEntry(t, p.id, { title: 'API change', labels: ['api', 'sdk'] });
    await seedEntry(t, p.id, { title: 'UI change', labels: ['ui'] });
    await seedEntry(t, p.id, { title: 'Draft API change', status: 'draft', labels: ['api'] });
    const res = await t.api.get(`/public/changelog/${p.slug}?label=api`).expect(200);
    expect(res.body.data.map((e: { id: string }) => e.id)).toEqual([api.id]);
    expect((await t.api.get(`/public/changelog/${p.slug}?label=nope`).expect(200)).body.data).toEqual([]);
  });

  it('searches title and body ignoring case, taking LIKE wildcards literally', async () => {
    const { project: p } = await project();
    const dark = await seedEntry(t, p.id, { title: 'Dark MODE', bodyMarkdown: 'Easier on the eyes.' });
    const body = await seedEntry(t, p.id, { title: 'Settings', bodyMarkdown: 'Adds a dark mode switch.' });
    const percent = await seedEntry(t, p.id, { title: 'Uptime', bodyMarkdown: 'Now 100% of the time.' });
    const underscore = await seedEntry(t, p.id, { title: 'Config', bodyMarkdown: 'Set `max_items`.' });
    await seedEntry(t, p.id, { title: 'Other', bodyMarkdown: 'Now 1000 of them; maxXitems.' });
    const search = async (q: string) =>
      (await t.api.get(`/public/changelog/${p.slug}?q=${encodeURIComponent(q)}`).expect(200)).body.data
        .map((e: { id: string }) => e.id)
        .sort();
    expect(await search('dark mode')).toEqual([dark.id, body.id].sort());
    expect(await search('100%')).toEqual([percent.id]);
    expect(await search('max_items')).toEqual([underscore.id]);
    expect(await search('%')).toEqual([percent.id]);
    expect(await search('\\')).toEqual([]);
  });

  it('lists the newest 50 by default; limit takes 1 to 100', async () => {
    const { project: p } = await project();
    const entries = await seedEntries(t, p.id, 55);
    const all = await t.api.get(`/public/changelog/${p.slug}`).expect(200);
    expect(all.body.data).toHaveLength(50);
    expect(all.body.data[0].id).toBe(entries[54].id);
    const two = await t.api.get(`/public/changelog/${p.slug}?limit=2`).expect(200);
    expect(two.body.data.map((e: { id: string }) => e.id)).toEqual([entries[54].id, entries[53].id]);
    expect((await t.api.get(`/public/changelog/${p.slug}?limit=100`).expect(200)).body.data).toHaveLength(55);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=abc', 'limit'],
    ['label=Not%20A%20Slug', 'label'],
    [`q=${'x'.repeat(201)}`, 'q'],
    ['unexpected=1', 'unexpected'],
  ])('refuses %s with VALIDATION_ERROR naming %s', async (query, param) => {
    const { project: p } = await project();
    const res = await t.api.get(`/public/changelog/${p.slug}?${query}`).expect(400);
    expect(res.body).toMatchObject({ data: null, error: { code: 'VALIDATION_ERROR', param } });
  });

  it('answers NOT_FOUND for an unknown or malformed slug, and an empty list for a project with nothing public', async () => {
    for (const slug of ['no-such-project', 'Bad_Slug']) {
      const res = await t.api.get(`/public/changelog/${slug}`).expect(404);
      expect(res.body).toMatchObject({ data: null, error: { code: 'NOT_FOUND', param: 'project_slug' } });
      expect(res.body.error.remediation).toMatch(/slug/);
    }
    const { project: p } = await project();
    await seedEntry(t, p.id, { status: 'draft' });
    expect((await t.api.get(`/public/changelog/${p.slug}`).expect(200)).body).toEqual({ data: [], error: null });
  });

  it('sends a strong ETag and public Cache-Control; If-None-Match answers 304 without a body until the set changes', async () => {
    const { project: p } = await project();
    await seedEntry(t, p.id);
    const first = await t.api.get(`/public/changelog/${p.slug}`).expect(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]{43}"$/);
    expect(first.headers['cache-control']).toBe('public, max-age=60');
    const again = await t.api.get(`/public/changelog/${p.slug}`).expect(200);
    expect(again.headers.etag).toBe(etag);
    const cached = await t.api.get(`/public/changelog/${p.slug}`).set('If-None-Match', etag).expect(304);
    expect(cached.text).toBe('');
    expect(cached.headers.etag).toBe(etag);
    expect((await t.api.get(`/public/changelog/${p.slug}`).set('If-None-Match', '"other"').expect(200)).body.data).toHaveLength(1);
    // The tag is the body's: the same body through a filter shares it, another body does not.
    expect((await t.api.get(`/public/changelog/${p.slug}?limit=1`).expect(200)).headers.etag).toBe(etag);
    expect((await t.api.get(`/public/changelog/${p.slug}?q=zzz`).expect(200)).headers.etag).not.toBe(etag);
    await seedEntry(t, p.id, { title: 'Another' });
    const changed = await t.api.get(`/public/changelog/${p.slug}`).set('If-None-Match', etag).expect(200);
    expect(changed.body.data).toHaveLength(2);
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('reads the page of entries through the partial public index', async () => {
    const { project: p } = await project();
    await seedEntries(t, p.id, 60, { labels: ['api'] });
    for (let i = 0; i < 200; i += 1) await seedEntry(t, p.id, { status: 'draft' });
    // A test database is too small for the planner to prefer any index over a scan; with scans
    // off it shows which index serves the statement.
    const plans = await t.db.transaction(async (em) => {
      await em.query('ANALYZE changelog_entries');
      await em.query('SET LOCAL enable_seqscan = off');
      const explained: string[] = [];
      const explaining = {
        query: async (sql: string, params: unknown[]) => {
          const rows: { 'QUERY PLAN': string }[] = await em.query(`EXPLAIN ${sql}`, params);
          explained.push(rows.map((row) => row['QUERY PLAN']).join('\n'));
          return [];
        },
      };
      for (const filter of [{}, { label: 'api' }, { q: 'update' }]) {
        await readPublicChangelog(explaining as never, p.slug, { now: t.clock.now(), limit: 50, ...filter });
      }
      return explained;
    });
    for (const plan of plans) expect(plan).toContain('ix_changelog_entries_public');
  });
});
