import type { NestExpressApplication } from '@nestjs/platform-express';
import { AdjustableClock } from '../../src/common/clock/clock';
import { ApiClient } from '../support/api-client';
import { DashboardOwner, provisionOwner } from '../support/dashboard-owner';
import { TestIdentityProvider } from '../support/identity-provider';
import { ChangeNotifications } from '../../src/infra/database/change-notifications.service';
import { startPeerApp, statementsDuring, untilListening } from '../support/peer-app';
import { TestApp } from '../support/test-app';

/**
 * The public changelog surfaces from each process's copy (changelog/public/public-changelog.cache.ts),
 * on two API processes on one database: A (the test app, with the workers) and B (a second app on
 * A's database). A repeat runs no SQL on either; after every kind of change the next request on
 * either shows it: a change's answer comes once B has applied it, so B is asked at once. On the
 * embedded database only A runs.
 */
const realPostgres = Boolean(process.env.DATABASE_URL);

/** Every title the tests publish, none a part of another. */
const ORDER = ['Faster search', 'Dark mode', 'Soon', 'Short-lived'];
const byKnownOrder = (x: string, y: string) => ORDER.indexOf(x) - ORDER.indexOf(y);

const SURFACES = [
  { name: 'json', path: (slug: string) => `/public/changelog/${slug}` },
  { name: 'page', path: (slug: string) => `/changelog/${slug}` },
  { name: 'rss', path: (slug: string) => `/public/changelog/${slug}/rss.xml` },
  { name: 'atom', path: (slug: string) => `/public/changelog/${slug}/atom.xml` },
  { name: 'json feed', path: (slug: string) => `/public/changelog/${slug}/feed.json` },
] as const;

describe('Public changelog surfaces from each process’s copy', () => {
  let idp: TestIdentityProvider;
  let a: TestApp;
  let b: NestExpressApplication | null = null;
  const bClock = new AdjustableClock();
  let owner: DashboardOwner;
  let slug: string;
  let search: { body: { data: { id: string } } };

  beforeAll(async () => {
    idp = await TestIdentityProvider.start();
    a = await TestApp.start({ env: idp.env() });
    if (realPostgres) b = await startPeerApp(a, bClock);
    owner = await provisionOwner(a.api, idp, 'public_cache_owner');
    slug = (await a.api.as(owner.secretKey).get('/v1/setup-check').expect(200)).body.data.project_slug;
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await idp?.close();
  });

  const processes = () => [{ name: 'A', api: a.api }, ...(b ? [{ name: 'B', api: new ApiClient(b.getHttpServer()) }] : [])];
  const bothApps = () => [a, ...(b ? [b] : [])];
  /** Reads of the public set while `work` runs, on either process (background jobs left out). */
  const publicReadsDuring = async (work: () => Promise<unknown>) =>
    (await statementsDuring(bothApps(), work)).filter((sql) => sql.includes('AS project_next_expiry'));
  const advance = (ms: number) => {
    a.clock.advance(ms);
    bClock.advance(ms);
  };
  const secretApi = () => a.api.as(owner.secretKey);

  /** The titles every surface of every process shows, after any change has reached B. */
  async function titlesEverywhere(): Promise<Record<string, string[]>> {
    const seen: Record<string, string[]> = {};
    for (const { name, api } of processes()) {
      const json = await api.get(`/public/changelog/${slug}`).expect(200);
      seen[`${name} json`] = json.body.data.map((entry: { title: string }) => entry.title);
      for (const surface of SURFACES.slice(1)) {
        const res = await api.unchecked().get(surface.path(slug)).expect(200);
        seen[`${name} ${surface.name}`] = ORDER.filter((title) => res.text.includes(title));
      }
    }
    return seen;
  }

  function everywhere(titles: string[]): Record<string, string[]> {
    const expected: Record<string, string[]> = {};
    for (const { name } of processes()) {
      expected[`${name} json`] = titles;
      for (const surface of SURFACES.slice(1)) expected[`${name} ${surface.name}`] = [...titles].sort(byKnownOrder);
    }
    return expected;
  }

  it('serves a repeat from the copy without SQL on every process, with its ETag; If-None-Match is 304', async () => {
    search = await secretApi()
      .post('/v1/changelog/entries')
      .send({ title: 'Faster search', body_markdown: 'Quick.', category: 'improvement' })
      .expect(201);
    // Listening first: a listener that has just put LISTEN in place drops every copy.
    await untilListening(bothApps());
    for (const { api } of processes()) for (const surface of SURFACES) await api.unchecked().get(surface.path(slug)).expect(200);
    const statements = await publicReadsDuring(async () => {
      for (const { api } of processes()) {
        for (const surface of SURFACES) {
          const first = await api.unchecked().get(surface.path(slug)).expect(200);
          const tag = first.headers.etag as string;
          expect(tag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
          await api.unchecked().get(surface.path(slug)).set('If-None-Match', tag).expect(304);
        }
      }
    });
    expect(statements).toEqual([]);
    // A search is read every time.
    const searched = await publicReadsDuring(() => a.api.get(`/public/changelog/${slug}?q=search`).expect(200));
    expect(searched.length).toBe(1);
  });

  it('shows every kind of change on the next request of either process', async () => {
    const api = secretApi();
    expect(await titlesEverywhere()).toEqual(everywhere(['Faster search']));

    await api.post('/v1/changelog/labels').send({ name: 'UI', slug: 'ui' }).expect(201);
    const dark = await api
      .post('/v1/changelog/entries')
      .send({ title: 'Dark mode', body_markdown: 'Dark.', category: 'feature', labels: ['ui'] });
    expect(dark.status).toBe(201);
    expect(await titlesEverywhere()).toEqual(everywhere(['Dark mode', 'Faster search']));

    // An edit of a published entry: pinned, it comes first.
    await api.patch(`/v1/changelog/entries/${search.body.data.id}`).send({ pinned: true }).expect(200);
    expect(await titlesEverywhere()).toEqual(everywhere(['Faster search', 'Dark mode']));

    // A label's new name shows on the page (its filter links and the entries that carry it).
    const labels = await api.get('/v1/changelog/labels').expect(200);
    const ui = labels.body.data.find((label: { slug: string }) => label.slug === 'ui');
    await api.patch(`/v1/changelog/labels/${ui.id}`).send({ name: 'Interface' }).expect(200);
    for (const { api: reader } of processes()) {
      const page = await reader.unchecked().get(`/changelog/${slug}`).expect(200);
      expect(page.text).toContain('Interface');
      expect(page.text).not.toContain('>UI<');
    }

    await api.post(`/v1/changelog/entries/${dark.body.data.id}/archive`).expect(200);
    expect(await titlesEverywhere()).toEqual(everywhere(['Faster search']));
    await api.post(`/v1/changelog/entries/${dark.body.data.id}/unarchive`).expect(200);
    expect(await titlesEverywhere()).toEqual(everywhere(['Faster search', 'Dark mode']));
    await api.delete(`/v1/changelog/entries/${dark.body.data.id}`).expect(200);
    expect(await titlesEverywhere()).toEqual(everywhere(['Faster search']));

    // Released by the worker at its time: the release is a write like any other.
    const at = new Date(a.clock.now().getTime() + 60_000).toISOString();
    await api
      .post('/v1/changelog/entries')
      .send({ title: 'Soon', body_markdown: 'Later.', category: 'feature', scheduled_at: at })
      .expect(201);
    expect(await titlesEverywhere()).toEqual(everywhere(['Faster search']));
    advance(61_000);
    await a.drainJobs();
    expect(await titlesEverywhere()).toEqual(everywhere(['Faster search', 'Soon']));

    // An expiry is no write: the copies end at it by themselves.
    const until = new Date(a.clock.now().getTime() + 120_000).toISOString();
    await api
      .post('/v1/changelog/entries')
      .send({ title: 'Short-lived', body_markdown: 'Brief.', category: 'fix', expires_at: until })
      .expect(201);
    expect(await titlesEverywhere()).toEqual(everywhere(['Faster search', 'Short-lived', 'Soon']));
    advance(121_000);
    expect(await titlesEverywhere()).toEqual(everywhere(['Faster search', 'Soon']));
  });

  it('follows a project renamed and moved to another slug on either process', async () => {
    const before = slug;
    await a.api
      .as(owner.token)
      .patch(`/v1/dashboard/projects/${owner.projectId}`)
      .send({ name: 'Renamed product', slug: `${before}-moved` })
      .expect(200);
    slug = `${before}-moved`;
    for (const { api } of processes()) {
      const page = await api.unchecked().get(`/changelog/${slug}`).expect(200);
      expect(page.text).toContain('Renamed product');
      const rss = await api.unchecked().get(`/public/changelog/${slug}/rss.xml`).expect(200);
      expect(rss.text).toContain('Renamed product');
      // The old slug now redirects (308), never the copy made under it.
      await api.unchecked().get(`/public/changelog/${before}`).expect(308);
      await api.unchecked().get(`/changelog/${before}`).expect(308);
    }
  });

  (realPostgres ? it : it.skip)('keeps no copy while its change listener is down: every request then reads the set', async () => {
    const onB = new ApiClient(b!.getHttpServer());
    await onB.get(`/public/changelog/${slug}`).expect(200);
    // B's listener is gone for good (as while it reconnects): a change elsewhere could go unheard.
    await b!.get(ChangeNotifications).onModuleDestroy();
    const reads = await publicReadsDuring(async () => {
      for (let n = 0; n < 3; n += 1) await onB.get(`/public/changelog/${slug}`).expect(200);
    });
    expect({ reads: reads.length }).toEqual({ reads: 3 });
  });
});
