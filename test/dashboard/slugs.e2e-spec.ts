import { seedEntry } from '../support/changelog-seed';
import { TestIdentityProvider } from '../support/identity-provider';
import { TestApp } from '../support/test-app';
import { provisionOwner } from '../support/dashboard-owner';

const DAY_MS = 86_400_000;

describe('PATCH /v1/dashboard/projects/{id}: names, slugs and redirects', () => {
  let idp: TestIdentityProvider;
  let t: TestApp;

  beforeAll(async () => {
    idp = await TestIdentityProvider.start();
    t = await TestApp.start({ env: idp.env() });
  });
  afterAll(async () => {
    await t.close();
    await idp.close();
  });
  afterEach(() => t.clock.reset());

  const patch = (token: string, id: string, body: Record<string, unknown>) =>
    t.api.as(token).patch(`/v1/dashboard/projects/${id}`).send(body);

  it('renames a project and changes its slug; the key cache and the hosted page follow at once', async () => {
    const user = await provisionOwner(t.api, idp, 'slug_rename', 'slug_rename@example.com', 'Old Name');
    await t.api.as(user.secretKey).get('/v1/setup-check').expect(200);
    const res = await patch(user.token, user.projectId, { name: 'New Name', slug: 'new-name' }).expect(200);
    expect(res.body.data).toMatchObject({
      id: user.projectId,
      name: 'New Name',
      slug: 'new-name',
      changelog_public_url: 'https://launch.test/changelog/new-name',
    });
    const setup = await t.api.as(user.secretKey).get('/v1/setup-check').expect(200);
    expect(setup.body.data.project_id).toBe(user.projectId);
    await t.api.get('/changelog/new-name').expect(200);
    const again = await t.api.as(user.token).get(`/v1/dashboard/projects/${user.projectId}`).expect(200);
    expect(again.body.data).toMatchObject({ name: 'New Name', slug: 'new-name' });
  });

  it('refuses malformed slugs with INVALID_SLUG and bad names with VALIDATION_ERROR', async () => {
    const user = await provisionOwner(t.api, idp, 'slug_invalid', 'slug_invalid@example.com', 'First');
    for (const slug of ['UPPER', 'under_score', 'sp ace', 'x'.repeat(41), '', 'ünï']) {
      const res = await patch(user.token, user.projectId, { slug }).expect(422);
      expect(res.body.error).toMatchObject({ code: 'INVALID_SLUG', param: 'slug' });
    }
    expect((await patch(user.token, user.projectId, { slug: 42 }).expect(400)).body.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      param: 'slug',
    });
    expect((await patch(user.token, user.projectId, { name: '' }).expect(400)).body.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      param: 'name',
    });
    expect((await patch(user.token, user.projectId, { plan: 'builder' }).expect(400)).body.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      param: 'plan',
    });
  });

  it('refuses a slug in use, a reserved one, and one another project released less than 30 days ago with SLUG_TAKEN', async () => {
    const a = await provisionOwner(t.api, idp, 'slug_taken_a', 'slug_taken_a@example.com', 'Alpha Taken');
    const b = await provisionOwner(t.api, idp, 'slug_taken_b', 'slug_taken_b@example.com', 'Beta Taken');
    const inUse = await patch(b.token, b.projectId, { slug: a.slug }).expect(409);
    expect(inUse.body.error).toMatchObject({ code: 'SLUG_TAKEN', param: 'slug', message: expect.stringContaining('in use') });
    for (const reserved of [
      'www',
      'api',
      'admin',
      'app',
      'dashboard',
      'docs',
      'status',
      'help',
      'support',
      'mail',
      'public',
      'static',
      'cdn',
    ]) {
      const res = await patch(b.token, b.projectId, { slug: reserved });
      expect({ reserved, status: res.status, code: res.body.error?.code }).toEqual({ reserved, status: 409, code: 'SLUG_TAKEN' });
    }
    await patch(a.token, a.projectId, { slug: 'alpha-moved' }).expect(200);
    const held = await patch(b.token, b.projectId, { slug: a.slug }).expect(409);
    expect(held.body.error.message).toContain('released by another project');
    t.clock.advance(30 * DAY_MS);
    await patch(b.token, b.projectId, { slug: a.slug }).expect(200);
    // Taken by another project, the old slug no longer redirects: it is theirs.
    const page = await t.api.get(`/public/changelog/${a.slug}`).expect(200);
    expect(page.body.data).toEqual([]);
  });

  it('allows the free first rename, then two changes per 30 days, then 429 with the date and Retry-After', async () => {
    const user = await provisionOwner(t.api, idp, 'slug_limit', 'slug_limit@example.com', 'Limited');
    await patch(user.token, user.projectId, { slug: 'limited-1' }).expect(200); // free: away from the generated slug
    t.clock.advance(DAY_MS);
    await patch(user.token, user.projectId, { slug: 'limited-2' }).expect(200);
    t.clock.advance(DAY_MS);
    await patch(user.token, user.projectId, { slug: 'limited-3' }).expect(200);
    const secondAt = t.clock.now().getTime() - DAY_MS;
    const refused = await patch(user.token, user.projectId, { slug: 'limited-4', name: 'Renamed too' }).expect(429);
    expect(refused.body.error).toMatchObject({ code: 'SLUG_CHANGE_LIMIT_REACHED', param: 'slug' });
    // The date the second change leaves the 30-day window (the clock runs on between requests).
    const [allowedAt] = /\d{4}-\d\d-\d\dT[\d:.]+Z/.exec(refused.body.error.remediation) ?? [''];
    expect(Math.abs(new Date(allowedAt).getTime() - (secondAt + 30 * DAY_MS))).toBeLessThan(5_000);
    expect(Math.abs(Number(refused.headers['retry-after']) - (29 * DAY_MS) / 1000)).toBeLessThan(5);
    // Nothing of the refused request stays (the name neither).
    const unchanged = await t.api.as(user.token).get(`/v1/dashboard/projects/${user.projectId}`).expect(200);
    expect(unchanged.body.data).toMatchObject({ slug: 'limited-3', name: 'Limited' });
    // A name alone and the same slug are not slug changes.
    await patch(user.token, user.projectId, { name: 'Renamed', slug: 'limited-3' }).expect(200);
    t.clock.advance(29 * DAY_MS);
    await patch(user.token, user.projectId, { slug: 'limited-4' }).expect(200);
  });

  it('counts the first rename of a chosen slug, and lets a project take back its own old slug', async () => {
    const user = await provisionOwner(t.api, idp, 'slug_chosen', 'slug_chosen@example.com', 'First');
    const made = await t.api.as(user.token).post('/v1/dashboard/projects').send({ name: 'Chosen', slug: 'chosen-one' }).expect(201);
    const id = made.body.data.project.id;
    await patch(user.token, id, { slug: 'chosen-two' }).expect(200);
    await patch(user.token, id, { slug: 'chosen-one' }).expect(200); // its own, still held from others
    expect((await patch(user.token, id, { slug: 'chosen-three' }).expect(429)).body.error.code).toBe('SLUG_CHANGE_LIMIT_REACHED');
    await t.api.get('/changelog/chosen-one').expect(200);
    const back = await t.api.get('/changelog/chosen-two').redirects(0).expect(308);
    expect(back.headers.location).toBe('/changelog/chosen-one');
  });

  it('lets one of two projects racing for a slug have it', async () => {
    const a = await provisionOwner(t.api, idp, 'slug_race_a', 'slug_race_a@example.com', 'Race A');
    const b = await provisionOwner(t.api, idp, 'slug_race_b', 'slug_race_b@example.com', 'Race B');
    const results = await Promise.all([
      patch(a.token, a.projectId, { slug: 'contested' }),
      patch(b.token, b.projectId, { slug: 'contested' }),
    ]);
    expect(results.map((res) => res.status).sort()).toEqual([200, 409]);
  });

  it("answers PROJECT_NOT_FOUND for another account's project", async () => {
    const owner = await provisionOwner(t.api, idp, 'slug_owner', 'slug_owner@example.com', 'First');
    const intruder = await provisionOwner(t.api, idp, 'slug_intruder', 'slug_intruder@example.com', 'First');
    const res = await patch(intruder.token, owner.projectId, { name: 'Mine now' }).expect(404);
    expect(res.body.error).toMatchObject({ code: 'PROJECT_NOT_FOUND', param: 'id' });
  });

  describe('old slugs redirect permanently', () => {
    it('from every page, feed and public route that takes a slug, keeping the rest of the address', async () => {
      const user = await provisionOwner(t.api, idp, 'slug_redirects', 'slug_redirects@example.com', 'Redirecting');
      const entry = await seedEntry(t, user.projectId, { title: 'Shipped' });
      const old = user.slug;
      await patch(user.token, user.projectId, { slug: 'redirected' }).expect(200);
      const cases: [string, string, string][] = [
        ['get', `/changelog/${old}`, '/changelog/redirected'],
        ['get', `/changelog/${old}?label=fix&q=dark`, '/changelog/redirected?label=fix&q=dark'],
        ['get', `/changelog/${old}/${entry.id}`, `/changelog/redirected/${entry.id}`],
        ['get', `/public/changelog/${old}?limit=5`, '/public/changelog/redirected?limit=5'],
        ['get', `/public/changelog/${old}/rss.xml`, '/public/changelog/redirected/rss.xml'],
        ['get', `/public/changelog/${old}/atom.xml`, '/public/changelog/redirected/atom.xml'],
        ['get', `/public/changelog/${old}/feed.json`, '/public/changelog/redirected/feed.json'],
        ['post', `/public/changelog/${old}/seen`, '/public/changelog/redirected/seen'],
        ['post', `/public/changelog/${old}/entries/${entry.id}/click`, `/public/changelog/redirected/entries/${entry.id}/click`],
        ['get', `/w/${old}?ref=ABC123`, '/w/redirected?ref=ABC123'],
        ['post', `/w/${old}`, '/w/redirected'],
      ];
      for (const [method, path, location] of cases) {
        const req = method === 'get' ? t.api.get(path) : t.api.post(path).send(path.endsWith('seen') ? { entry_ids: [entry.id] } : {});
        const res = await req.redirects(0);
        expect({ path, status: res.status, location: res.headers.location, cache: res.headers['cache-control'] }).toEqual({
          path,
          status: 308,
          location,
          cache: 'no-store',
        });
      }
      const followed = await t.api.get('/public/changelog/redirected').expect(200);
      expect(followed.body.data.map((e: { id: string }) => e.id)).toEqual([entry.id]);
    });

    it('follows a chain of renames to the current slug, and leaves unknown slugs 404', async () => {
      const user = await provisionOwner(t.api, idp, 'slug_chain', 'slug_chain@example.com', 'Chain');
      const first = user.slug;
      await patch(user.token, user.projectId, { slug: 'chain-two' }).expect(200);
      await patch(user.token, user.projectId, { slug: 'chain-three' }).expect(200);
      for (const old of [first, 'chain-two']) {
        const res = await t.api.get(`/changelog/${old}`).redirects(0).expect(308);
        expect(res.headers.location).toBe('/changelog/chain-three');
      }
      await t.api.get('/changelog/never-was-a-slug').expect(404);
      expect((await t.api.get('/public/changelog/never-was-a-slug').expect(404)).body.error.code).toBe('NOT_FOUND');
      await t.api.get('/w/never-was-a-slug').expect(404);
    });
  });
});
