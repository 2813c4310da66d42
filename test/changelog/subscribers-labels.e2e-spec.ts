import { TestIdentityProvider } from '../support/identity-provider';
import { SeededProject, TestApp } from '../support/test-app';
import { mailsOf, seedLabel, subscriberLinkIn, tokenOf } from './subscribers-test-helpers';

describe('changelog subscriber labels', () => {
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

  /** A project with labels alpha, beta and gamma. */
  async function projectWithLabels(): Promise<SeededProject> {
    const seeded = await t.seedProject({ plan: 'indie', name: 'Topics Inc' });
    for (const slug of ['alpha', 'beta', 'gamma']) await seedLabel(t, seeded.project.id, slug);
    return seeded;
  }

  async function follow(seeded: SeededProject, email: string, labels: string[] = [], key = seeded.secretKey): Promise<string> {
    const res = await t.api.as(key).post('/v1/changelog/subscribers').send({ email, labels }).expect(201);
    return res.body.data.id;
  }

  describe('GET /v1/changelog/subscribers', () => {
    it('lists subscribers newest first, in pages, with the spec shape', async () => {
      const seeded = await projectWithLabels();
      const first = await follow(seeded, 'one@example.com');
      const second = await follow(seeded, 'two@example.com', ['alpha']);
      const third = await follow(seeded, 'three@example.com', [], seeded.publishableKey);
      const page1 = await t.api.as(seeded.secretKey).get('/v1/changelog/subscribers?limit=2').expect(200);
      expect(page1.body.data.map((item: { id: string }) => item.id)).toEqual([third, second]);
      expect(page1.body.data[0]).toEqual({
        id: third,
        project_id: seeded.project.id,
        email: 'three@example.com',
        confirmed: false,
        created_at: expect.any(String),
      });
      expect(page1.body.meta).toEqual({ next_cursor: expect.any(String), has_more: true });
      const page2 = await t.api
        .as(seeded.secretKey)
        .get(`/v1/changelog/subscribers?limit=2&cursor=${encodeURIComponent(page1.body.meta.next_cursor)}`)
        .expect(200);
      expect(page2.body.data.map((item: { id: string }) => item.id)).toEqual([first]);
      expect(page2.body.meta).toEqual({ next_cursor: null, has_more: false });
    });

    it('filters by label: the people who chose it', async () => {
      const seeded = await projectWithLabels();
      const alpha = await follow(seeded, 'a@example.com', ['alpha']);
      const both = await follow(seeded, 'ab@example.com', ['alpha', 'beta']);
      await follow(seeded, 'b@example.com', ['beta']);
      await follow(seeded, 'all@example.com');
      const res = await t.api.as(seeded.secretKey).get('/v1/changelog/subscribers?label=alpha').expect(200);
      expect(res.body.data.map((item: { id: string }) => item.id)).toEqual([both, alpha]);
      const none = await t.api.as(seeded.secretKey).get('/v1/changelog/subscribers?label=gamma').expect(200);
      expect(none.body.data).toEqual([]);
    });

    it('answers VALIDATION_ERROR for an unknown label, and never shows another project', async () => {
      const seeded = await projectWithLabels();
      const other = await projectWithLabels();
      await follow(other, 'other@example.com');
      const unknown = await t.api.as(seeded.secretKey).get('/v1/changelog/subscribers?label=nope').expect(400);
      expect(unknown.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'label' });
      const bad = await t.api.as(seeded.secretKey).get('/v1/changelog/subscribers?limit=0').expect(400);
      expect(bad.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'limit' });
      const mine = await t.api.as(seeded.secretKey).get('/v1/changelog/subscribers').expect(200);
      expect(mine.body.data).toEqual([]);
    });

    it('is for secret keys only', async () => {
      const seeded = await projectWithLabels();
      const res = await t.api.as(seeded.publishableKey).get('/v1/changelog/subscribers').expect(403);
      expect(res.body.error.code).toBe('KEY_INSUFFICIENT_PERMISSIONS');
    });
  });

  describe('PUT /v1/changelog/subscribers/{subscriber_id}/labels', () => {
    const put = (key: string, id: string, body: unknown) =>
      t.api
        .as(key)
        .put(`/v1/changelog/subscribers/${id}/labels`)
        .send(body as object);

    it('replaces the labels; an empty list means everything', async () => {
      const seeded = await projectWithLabels();
      const id = await follow(seeded, 'a@example.com', ['alpha']);
      const res = await put(seeded.secretKey, id, { labels: ['gamma', 'beta', 'gamma'] }).expect(200);
      expect(res.body).toEqual({ data: { id, labels: ['beta', 'gamma'] }, error: null });
      const listed = await t.api.as(seeded.secretKey).get('/v1/changelog/subscribers?label=alpha').expect(200);
      expect(listed.body.data).toEqual([]);
      const cleared = await put(seeded.secretKey, id, { labels: [] }).expect(200);
      expect(cleared.body.data).toEqual({ id, labels: [] });
    });

    it('refuses unknown slugs and a missing list, and changes nothing', async () => {
      const seeded = await projectWithLabels();
      const id = await follow(seeded, 'a@example.com', ['alpha']);
      const unknown = await put(seeded.secretKey, id, { labels: ['beta', 'nope'] }).expect(400);
      expect(unknown.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'labels' });
      const missing = await put(seeded.secretKey, id, {}).expect(400);
      expect(missing.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'labels' });
      const still = await t.api.as(seeded.secretKey).get('/v1/changelog/subscribers?label=alpha').expect(200);
      expect(still.body.data.map((item: { id: string }) => item.id)).toEqual([id]);
    });

    it("answers NOT_FOUND for an unknown id and for another project's subscriber", async () => {
      const seeded = await projectWithLabels();
      const other = await projectWithLabels();
      const theirs = await follow(other, 'theirs@example.com');
      for (const id of [theirs, 'sub_01JD3Z4Q9X8V7T6S5R4Q3P2N1M', 'nonsense']) {
        const res = await put(seeded.secretKey, id, { labels: [] }).expect(404);
        expect(res.body.error).toMatchObject({ code: 'NOT_FOUND', param: 'subscriber_id' });
      }
    });

    it('is for secret keys only', async () => {
      const seeded = await projectWithLabels();
      const id = await follow(seeded, 'a@example.com');
      const res = await put(seeded.publishableKey, id, { labels: [] }).expect(403);
      expect(res.body.error.code).toBe('KEY_INSUFFICIENT_PERMISSIONS');
      expect((await t.api.put(`/v1/changelog/subscribers/${id}/labels`).send({ labels: [] }).expect(401)).body.error.code).toBe(
        'MISSING_AUTH',
      );
    });
  });

  describe('PUT /v1/dashboard/changelog/subscribers/{subscriber_id}/labels', () => {
    it("sets a subscriber's labels in the project named by X-Service-Project, and nowhere else", async () => {
      const token = idp.token({ sub: 'user_subscriber_labels', email: 'owner@example.com' });
      const provisioned = await t.api.as(token).post('/v1/auth/provision').send({ project_name: 'Dash' }).expect(200);
      const projectId: string = provisioned.body.data.project.id;
      const secretKey: string = provisioned.body.data.secret_key;
      await seedLabel(t, projectId, 'alpha');
      const res = await t.api.as(secretKey).post('/v1/changelog/subscribers').send({ email: 'd@example.com' }).expect(201);
      const id: string = res.body.data.id;
      const put = (subscriberId: string, project: string, body: object) =>
        t.api.as(token).put(`/v1/dashboard/changelog/subscribers/${subscriberId}/labels`).set('X-Service-Project', project).send(body);

      const done = await put(id, projectId, { labels: ['alpha'] }).expect(200);
      expect(done.body.data).toEqual({ id, labels: ['alpha'] });
      const unknown = await put(id, projectId, { labels: ['nope'] }).expect(400);
      expect(unknown.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'labels' });

      const other = await t.seedProject();
      const theirs = await t.api.as(other.secretKey).post('/v1/changelog/subscribers').send({ email: 'x@example.com' }).expect(201);
      const notFound = await put(theirs.body.data.id, projectId, { labels: [] }).expect(404);
      expect(notFound.body.error.code).toBe('NOT_FOUND');
      const foreignProject = await put(id, other.project.id, { labels: [] }).expect(404);
      expect(foreignProject.body.error.code).toBe('PROJECT_NOT_FOUND');
      const withKey = await t.api.as(secretKey).put(`/v1/dashboard/changelog/subscribers/${id}/labels`).send({ labels: [] }).expect(401);
      expect(withKey.body.error.code).toBe('WRONG_AUTH_TYPE');
    });
  });

  describe('PUT /v1/changelog/subscribers/by-token/{token}/labels', () => {
    async function emailedTopicsToken(seeded: SeededProject): Promise<{ id: string; token: string }> {
      const id = await follow(seeded, 'me@example.com', ['alpha'], seeded.publishableKey);
      const [mail] = await mailsOf(t, seeded.project.id, 'changelog.subscriber_confirmation');
      return { id, token: tokenOf(subscriberLinkIn(mail.textBody, 'preferences')) };
    }

    it('lets the person change their own topics with the token of an emailed link, no key', async () => {
      const seeded = await projectWithLabels();
      const { id, token } = await emailedTopicsToken(seeded);
      const res = await t.api
        .put(`/v1/changelog/subscribers/by-token/${token}/labels`)
        .send({ labels: ['beta'] })
        .expect(200);
      expect(res.body).toEqual({ data: { id, labels: ['beta'] }, error: null });
      const listed = await t.api.as(seeded.secretKey).get('/v1/changelog/subscribers?label=beta').expect(200);
      expect(listed.body.data.map((item: { id: string }) => item.id)).toEqual([id]);
    });

    it('answers 404 NOT_FOUND for an unknown token or a token of another link, VALIDATION_ERROR for unknown labels', async () => {
      const seeded = await projectWithLabels();
      const { token } = await emailedTopicsToken(seeded);
      const [mail] = await mailsOf(t, seeded.project.id, 'changelog.subscriber_confirmation');
      const unsubscribeToken = tokenOf(subscriberLinkIn(mail.textBody, 'unsubscribe'));
      for (const bad of ['nope', unsubscribeToken]) {
        const res = await t.api.put(`/v1/changelog/subscribers/by-token/${bad}/labels`).send({ labels: [] }).expect(404);
        expect(res.body.error).toMatchObject({ code: 'NOT_FOUND', param: 'token' });
      }
      const unknown = await t.api
        .put(`/v1/changelog/subscribers/by-token/${token}/labels`)
        .send({ labels: ['nope'] })
        .expect(400);
      expect(unknown.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'labels' });
    });
  });

  describe('the "Choose your topics" page', () => {
    it('shows the labels as checkboxes on GET and saves the checked ones on POST; none checked means everything', async () => {
      const seeded = await projectWithLabels();
      await follow(seeded, 'me@example.com', ['alpha'], seeded.publishableKey);
      const [mail] = await mailsOf(t, seeded.project.id, 'changelog.subscriber_confirmation');
      const link = subscriberLinkIn(mail.textBody, 'preferences');
      const page = await t.api.get(link).expect(200);
      expect(page.text).toContain('Choose what the Topics Inc changelog emails you about.');
      expect(page.text).toContain('<input type="checkbox" name="labels" value="alpha" checked> ALPHA');
      expect(page.text).toContain('<input type="checkbox" name="labels" value="beta"> BETA');

      const saved = await t.api.post(link).type('form').send('labels=beta&labels=gamma&labels=deleted-meanwhile').expect(200);
      expect(saved.text).toContain('Saved.');
      expect(saved.text).toContain('value="beta" checked');
      expect(saved.text).toContain('value="gamma" checked');
      expect(saved.text).toContain('value="alpha">');
      const cleared = await t.api.post(link).type('form').send('').expect(200);
      expect(cleared.text).not.toContain('checked');
      const invalid = await t.api.get('/v1/changelog/subscribers/preferences?token=nope').expect(404);
      expect(invalid.text).toContain('This link is not valid');
    });
  });
});
