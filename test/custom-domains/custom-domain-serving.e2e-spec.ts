import { DomUtils, parseDocument } from 'htmlparser2';
import type { Element } from 'domhandler';
import { CustomDomainHosts } from '../../src/custom-domains/custom-domain-hosts.service';
import { CustomDomainEntity } from '../../src/custom-domains/entities/custom-domain.entity';
import { newId } from '../../src/common/ids/ids';
import { seedEntry } from '../support/changelog-seed';
import { entryCounts } from '../support/engagement';
import { SeededProject, TestApp } from '../support/test-app';
import { signupRows } from '../waitlist/waitlist-test-helpers';

const TARGET = 'domains.launch.test';
const HOST = 'news.serving.example';

type Doc = ReturnType<typeof parseDocument>;
const elements = (doc: Doc, test: (element: Element) => boolean) => DomUtils.findAll(test, doc.children);
const attributes = (doc: Doc, name: string) => elements(doc, (element) => name in element.attribs).map((element) => element.attribs[name]);

/** A verified hostname written straight to the database: this suite is about serving, not DNS. */
async function seedDomain(t: TestApp, projectId: string, hostname: string, verified = true): Promise<void> {
  const now = t.clock.now();
  await t.db.manager.insert(
    CustomDomainEntity,
    Object.assign(new CustomDomainEntity(), {
      id: newId('dom'),
      projectId,
      hostname,
      verificationToken: 'a'.repeat(32),
      verifiedAt: verified ? now : null,
      lastCheckedAt: verified ? now : null,
      lastCheckError: null,
      nextCheckAt: null,
      failingSince: null,
      pendingSince: now,
      createdAt: now,
    }),
  );
}

describe('requests whose Host is a verified custom domain', () => {
  let t: TestApp;
  let ours: SeededProject;
  let other: SeededProject;
  let entryId: string;
  let ctaEntryId: string;

  beforeAll(async () => {
    t = await TestApp.start({ env: { CUSTOM_DOMAIN_CNAME_TARGET: TARGET, BROWSER_RATE_LIMIT: '100000', DEV_MAIL: 'on' } });
    ours = await t.seedProject({ plan: 'builder', name: 'Acme' });
    other = await t.seedProject({ plan: 'builder', name: 'Other' });
    entryId = (await seedEntry(t, ours.project.id, { title: 'Dark mode arrives', labels: ['ui'] })).id;
    ctaEntryId = (
      await seedEntry(t, ours.project.id, {
        title: 'Exports',
        ctaLabel: 'Try it',
        ctaUrl: '/exports',
        publishedAt: new Date(t.clock.now().getTime() - 3_600_000),
      })
    ).id;
    await seedEntry(t, other.project.id, { title: 'Someone else' });
    await seedDomain(t, ours.project.id, HOST);
  });
  afterAll(() => t.close());

  // Custom-domain paths are not in the API document: these calls skip its check.
  const on = (hostname: string) => ({
    get: (path: string) => t.api.unchecked().get(path).set('Host', hostname),
    post: (path: string) => t.api.unchecked().post(path).set('Host', hostname),
  });
  const host = on(HOST);

  it('serve the hosted page, entry pages, feeds and JSON at the root paths', async () => {
    const page = await host.get('/').expect(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.text).toContain('Dark mode arrives');
    expect((await host.get(`/${entryId}`).expect(200)).text).toContain('Dark mode arrives');
    const rss = await host.get('/rss.xml').expect(200);
    expect(rss.headers['content-type']).toMatch(/rss\+xml/);
    expect(rss.text).toContain('Dark mode arrives');
    expect((await host.get('/feed.rss').expect(200)).text).toContain('<rss');
    expect((await host.get('/atom.xml').expect(200)).headers['content-type']).toMatch(/atom\+xml/);
    expect((await host.get('/feed.atom').expect(200)).headers['content-type']).toMatch(/atom\+xml/);
    expect((await host.get('/feed.json').expect(200)).body.items[0].title).toBe('Dark mode arrives');
    expect((await host.get('/changelog.json').expect(200)).body.data[0].title).toBe('Dark mode arrives');
    // Query strings go along (the page's search); Host matching ignores case and port.
    expect((await host.get('/?q=nothing-matches').expect(200)).text).toContain('No updates match this search.');
    expect((await on('NEWS.serving.example:443').get('/').expect(200)).text).toContain('Dark mode arrives');
    // The project's own canonical paths work there too.
    expect((await host.get(`/changelog/${ours.project.slug}`).expect(200)).text).toContain('Dark mode arrives');
    expect((await host.get(`/public/changelog/${ours.project.slug}/rss.xml`).expect(200)).text).toContain('Dark mode arrives');
  });

  it('serve every address the hosted page links to or calls, resolved against the custom domain', async () => {
    const base = `https://${HOST}/`;
    const doc = parseDocument((await host.get('/').expect(200)).text);
    const relative = (href: string, from: string) => {
      const url = new URL(href, from);
      return url.host === HOST ? `${url.pathname}${url.search}` : null;
    };
    // The entries' own links, the label filters, and the view and click counters (the button's
    // target, /exports, is the owner's site path: not ours to serve).
    const links = attributes(doc, 'href')
      .map((href) => relative(href, base))
      .filter((path): path is string => path !== null && path !== '/exports');
    expect(links).toEqual(
      expect.arrayContaining([`/${ours.project.slug}/${entryId}`, `/${ours.project.slug}?label=ui`, `/${ours.project.slug}`]),
    );
    for (const path of links) expect((await host.get(path)).status).toBe(200);
    const [seenPath] = attributes(doc, 'data-seen').map((href) => relative(href, base));
    expect(seenPath).toBe(`/public/changelog/${ours.project.slug}/seen`);
    const seen = await host
      .post(seenPath!)
      .send({ entry_ids: [entryId] })
      .expect(200);
    expect(seen.body.data).toEqual({ recorded: 1 });
    const [clickPath] = attributes(doc, 'data-click').map((href) => relative(href, base));
    expect(clickPath).toBe(`/public/changelog/${ours.project.slug}/entries/${ctaEntryId}/click`);
    expect((await host.post(clickPath!).expect(200)).body.data).toEqual({ recorded: 1 });
    expect(await entryCounts(t, entryId)).toMatchObject({ pageViews: 1 });
    expect(await entryCounts(t, ctaEntryId)).toMatchObject({ ctaClicks: 1 });

    // An entry's page, reached at its short address: the way back and its counter.
    const entryUrl = `${base}${entryId}`;
    const entryDoc = parseDocument((await host.get(`/${entryId}`).expect(200)).text);
    const back = attributes(entryDoc, 'href')
      .map((href) => relative(href, entryUrl))
      .filter((path): path is string => path !== null);
    expect(back).toContain(`/${ours.project.slug}`);
    for (const path of back) expect((await host.get(path)).status).toBe(200);
    expect(attributes(entryDoc, 'data-seen').map((href) => relative(href, entryUrl))).toEqual([
      `/public/changelog/${ours.project.slug}/seen`,
    ]);
  });

  it('write canonical and feed links on the custom domain there, and on PUBLIC_BASE_URL on our own host', async () => {
    const slug = ours.project.slug;
    const headLinks = (html: string) => {
      const doc = parseDocument(html);
      const href = (rel: string, type?: string) =>
        elements(doc, (element) => element.name === 'link' && element.attribs.rel === rel && (!type || element.attribs.type === type)).map(
          (element) => element.attribs.href,
        );
      return {
        canonical: href('canonical'),
        feeds: [
          href('alternate', 'application/rss+xml'),
          href('alternate', 'application/atom+xml'),
          href('alternate', 'application/feed+json'),
        ],
      };
    };
    const selfLinks = async (get: (path: string) => Promise<{ text: string; body: { feed_url?: string } }>, folder: string) => [
      /<atom:link href="([^"]+)" rel="self"/.exec((await get(`${folder}/rss.xml`)).text)?.[1],
      /<link rel="self" href="([^"]+)"/.exec((await get(`${folder}/atom.xml`)).text)?.[1],
      (await get(`${folder}/feed.json`)).body.feed_url,
    ];

    const site = `https://${HOST}`;
    const onDomain = (path: string) => host.get(path).expect(200);
    expect(headLinks((await onDomain('/')).text)).toEqual({
      canonical: [`${site}/`],
      feeds: [[`${site}/rss.xml`], [`${site}/atom.xml`], [`${site}/feed.json`]],
    });
    expect(headLinks((await onDomain(`/${entryId}`)).text).canonical).toEqual([`${site}/${entryId}`]);
    // Also at the project's own paths, when they are read on the domain.
    expect(headLinks((await onDomain(`/changelog/${slug}/${entryId}`)).text).canonical).toEqual([`${site}/${entryId}`]);
    expect(await selfLinks(onDomain, '')).toEqual([`${site}/rss.xml`, `${site}/atom.xml`, `${site}/feed.json`]);
    expect(await selfLinks(onDomain, `/public/changelog/${slug}`)).toEqual([`${site}/rss.xml`, `${site}/atom.xml`, `${site}/feed.json`]);
    expect((await onDomain('/feed.json')).body.items[0].url).toBe(`${site}/${entryId}`);

    const base = t.config.publicBaseUrl;
    const onOurs = (path: string) => on('127.0.0.1').get(path).expect(200);
    const folder = `${base}/public/changelog/${slug}`;
    expect(headLinks((await onOurs(`/changelog/${slug}`)).text)).toEqual({
      canonical: [`${base}/changelog/${slug}`],
      feeds: [[`${folder}/rss.xml`], [`${folder}/atom.xml`], [`${folder}/feed.json`]],
    });
    expect(headLinks((await onOurs(`/changelog/${slug}/${entryId}`)).text).canonical).toEqual([`${base}/changelog/${slug}/${entryId}`]);
    expect(await selfLinks(onOurs, `/public/changelog/${slug}`)).toEqual([
      `${folder}/rss.xml`,
      `${folder}/atom.xml`,
      `${folder}/feed.json`,
    ]);
  });

  it("serve the project's waitlist page, whose form posts there, with its canonical and referral links on the domain", async () => {
    const form = await host.get(`/w/${ours.project.slug}`).expect(200);
    expect(form.text).toContain('Join the waitlist for Acme.');
    const action = /<form method="post" action="([^"]+)">/.exec(form.text)?.[1] ?? '';
    const target = new URL(action, `https://${HOST}/w/${ours.project.slug}`);
    expect(target.pathname).toBe(`/w/${ours.project.slug}`);
    const canonical = (html: string) => /<link rel="canonical" href="([^"]+)">/.exec(html)?.[1];
    expect(canonical(form.text)).toBe(`https://${HOST}/w/${ours.project.slug}`);
    const ownHost = await on('127.0.0.1').get(`/w/${ours.project.slug}?ref=ABCD2345`).expect(200);
    expect(canonical(ownHost.text)).toBe(`${t.config.publicBaseUrl}/w/${ours.project.slug}`);
    const joined = await host.post(target.pathname).type('form').send('email=ada@example.com').expect(201);
    expect(joined.text).toContain('position <strong id="position">1</strong>');
    // The link to share leads back to the domain the person joined on.
    const [signup] = await signupRows(t, ours.project.id);
    const shared = /<a id="referral-link" href="([^"]+)">/.exec(joined.text)?.[1];
    expect(shared).toBe(`https://${HOST}/w/${ours.project.slug}?ref=${signup.referralCode}`);
    expect((await signupRows(t, ours.project.id)).map((row) => row.email)).toEqual(['ada@example.com']);
  });

  it.each([
    ['GET', '/docs'],
    ['GET', '/docs/'],
    ['GET', '/openapi.json'],
    ['GET', '/openapi.yaml'],
    ['GET', '/v1/_health'],
    ['GET', '/v1/setup-check'],
    ['GET', '/dev/mail'],
    ['GET', '/favicon.ico'],
    ['POST', '/v1/waitlist/signups'],
    ['POST', '/v1/dashboard/domains'],
  ])('answer 404 NOT_FOUND to %s %s, which is not one of its pages', async (method, path) => {
    const res = method === 'GET' ? await host.get(path) : await host.post(path).send({ email: 'x@example.com' });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ data: null, error: { code: 'NOT_FOUND', message: 'No such page on this domain.' } });
  });

  it("answer 404 NOT_FOUND for another project's pages, feeds, counters and waitlist", async () => {
    const slug = other.project.slug;
    const requests = [
      host.get(`/changelog/${slug}`),
      host.get(`/${slug}`),
      host.get(`/public/changelog/${slug}`),
      host.get(`/public/changelog/${slug}/rss.xml`),
      host.get(`/public/changelog/${slug}/atom.xml`),
      host.get(`/public/changelog/${slug}/feed.json`),
      host.get(`/w/${slug}`),
      host.post(`/w/${slug}`).type('form').send('email=eve@example.com'),
      host.post(`/public/changelog/${slug}/seen`).send({ entry_ids: [] }),
      // A path that only differs in case or by a trailing slash is not the project's either.
      host.get(`/W/${ours.project.slug}`),
      host.get(`/changelog/${ours.project.slug}/`),
    ];
    for (const res of await Promise.all(requests)) {
      expect(res.status).toBe(404);
      expect(res.body.error).toMatchObject({ code: 'NOT_FOUND', message: 'No such page on this domain.' });
      expect(res.text).not.toContain('Someone else');
    }
    expect(await signupRows(t, other.project.id)).toEqual([]);
  });

  it('leave our own hosts and hosts that are no verified domain with every route', async () => {
    await seedDomain(t, other.project.id, 'pending.serving.example', false);
    for (const hostname of ['launch.test', '127.0.0.1', 'pending.serving.example']) {
      expect((await on(hostname).get('/v1/_health')).status).toBe(200);
      expect((await on(hostname).get('/openapi.json')).status).toBe(200);
      expect((await on(hostname).get(`/changelog/${other.project.slug}`)).status).toBe(200);
      expect((await on(hostname).get('/')).status).toBe(404);
    }
  });

  it('never answer the development mail page, which our own host answers', async () => {
    expect((await on('127.0.0.1').get('/dev/mail').expect(200)).body.error).toBeNull();
    const res = await host.get('/dev/mail').expect(404);
    expect(res.body.error).toMatchObject({ code: 'NOT_FOUND', message: 'No such page on this domain.' });
  });

  it('stop serving a removed domain', async () => {
    await seedDomain(t, ours.project.id, 'gone.serving.example');
    const gone = on('gone.serving.example');
    expect((await gone.get('/v1/_health')).status).toBe(404);
    await t.db.manager.delete(CustomDomainEntity, { hostname: 'gone.serving.example' });
    t.get(CustomDomainHosts).forget('gone.serving.example');
    expect((await gone.get('/')).status).toBe(404);
    expect((await gone.get('/v1/_health')).status).toBe(200);
  });
});
