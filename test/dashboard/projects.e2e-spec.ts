import { ProjectsService } from '../../src/projects/projects.service';
import { TestIdentityProvider } from '../support/identity-provider';
import { TestApp } from '../support/test-app';
import { provisionOwner } from '../support/dashboard-owner';

const DAY_MS = 86_400_000;

describe('Dashboard projects', () => {
  let idp: TestIdentityProvider;
  let t: TestApp;

  beforeAll(async () => {
    idp = await TestIdentityProvider.start();
    t = await TestApp.start({ env: idp.env({ DASHBOARD_ORIGINS: 'https://app.launch.test' }) });
  });
  afterAll(async () => {
    await t.close();
    await idp.close();
  });

  describe('POST /v1/dashboard/projects', () => {
    it('creates a Free project with its first keys, shown once, that work at once', async () => {
      const user = await provisionOwner(t.api, idp, 'proj_create', 'proj_create@example.com', 'First');
      const res = await t.api.as(user.token).post('/v1/dashboard/projects').send({ name: 'Second App' }).expect(201);
      expect(res.body.data).toEqual({
        project: {
          id: expect.stringMatching(/^prj_/),
          slug: 'second-app',
          name: 'Second App',
          plan: 'free',
          changelog_public_url: 'https://launch.test/changelog/second-app',
          created_at: expect.any(String),
        },
        secret_key: expect.stringMatching(/^svc_live_[0-9A-Za-z]{32}$/),
        publishable_key: expect.stringMatching(/^svc_pub_live_[0-9A-Za-z]{32}$/),
      });
      const setup = await t.api.as(res.body.data.secret_key).get('/v1/setup-check').expect(200);
      expect(setup.body.data.project_id).toBe(res.body.data.project.id);
      const list = await t.api.as(user.token).get('/v1/dashboard/projects').expect(200);
      expect(list.body.data.map((p: { id: string }) => p.id)).toEqual([user.projectId, res.body.data.project.id]);
    });

    it('takes an explicit slug, and refuses a malformed, reserved or used one', async () => {
      const user = await provisionOwner(t.api, idp, 'proj_slugs', 'proj_slugs@example.com', 'First');
      const made = await t.api.as(user.token).post('/v1/dashboard/projects').send({ name: 'X', slug: 'explicit-slug' }).expect(201);
      expect(made.body.data.project.slug).toBe('explicit-slug');
      const other = await provisionOwner(t.api, idp, 'proj_slugs_other', 'proj_slugs_other@example.com', 'First');
      const cases: [unknown, number, string][] = [
        ['Bad Slug', 422, 'INVALID_SLUG'],
        ['x'.repeat(41), 422, 'INVALID_SLUG'],
        ['', 422, 'INVALID_SLUG'],
        ['www', 409, 'SLUG_TAKEN'],
        ['dashboard', 409, 'SLUG_TAKEN'],
        ['explicit-slug', 409, 'SLUG_TAKEN'],
      ];
      for (const [slug, status, code] of cases) {
        const res = await t.api.as(other.token).post('/v1/dashboard/projects').send({ name: 'Y', slug });
        expect({ slug, status: res.status, code: res.body.error?.code, param: res.body.error?.param }).toEqual({
          slug,
          status,
          code,
          param: 'slug',
        });
      }
      // Nothing half-made stays behind.
      expect((await t.api.as(other.token).get('/v1/dashboard/projects').expect(200)).body.data).toHaveLength(1);
    });

    it('validates the body with VALIDATION_ERROR and the field', async () => {
      const user = await provisionOwner(t.api, idp, 'proj_validate', 'proj_validate@example.com', 'First');
      const missing = await t.api.as(user.token).post('/v1/dashboard/projects').send({}).expect(400);
      expect(missing.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'name' });
      const long = await t.api
        .as(user.token)
        .post('/v1/dashboard/projects')
        .send({ name: 'n'.repeat(101) })
        .expect(400);
      expect(long.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'name' });
      const extra = await t.api.as(user.token).post('/v1/dashboard/projects').send({ name: 'ok', plan: 'builder' }).expect(400);
      expect(extra.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'plan' });
    });

    it('stops at the plan limit with PROJECT_LIMIT_REACHED, counting under the highest plan of the account', async () => {
      const user = await provisionOwner(t.api, idp, 'proj_limit', 'proj_limit@example.com', 'First');
      await t.api.as(user.token).post('/v1/dashboard/projects').send({ name: 'Two' }).expect(201);
      const refused = await t.api.as(user.token).post('/v1/dashboard/projects').send({ name: 'Three' }).expect(403);
      expect(refused.body.error).toMatchObject({
        code: 'PROJECT_LIMIT_REACHED',
        remediation: expect.stringContaining('free plan allows 2'),
      });
      // One Indie project lifts the whole account to 4.
      await t.get(ProjectsService).setPlan(user.projectId, 'indie');
      await t.api.as(user.token).post('/v1/dashboard/projects').send({ name: 'Three' }).expect(201);
      await t.api.as(user.token).post('/v1/dashboard/projects').send({ name: 'Four' }).expect(201);
      const fifth = await t.api.as(user.token).post('/v1/dashboard/projects').send({ name: 'Five' }).expect(403);
      expect(fifth.body.error.remediation).toContain('indie plan allows 4');
    });

    it('keeps the limit under concurrent creates', async () => {
      const user = await provisionOwner(t.api, idp, 'proj_race', 'proj_race@example.com', 'First');
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          t.api
            .as(user.token)
            .post('/v1/dashboard/projects')
            .send({ name: `Race ${i}` }),
        ),
      );
      expect(results.map((res) => res.status).sort()).toEqual([201, 403, 403, 403, 403, 403]);
      expect((await t.api.as(user.token).get('/v1/dashboard/projects').expect(200)).body.data).toHaveLength(2);
    });

    it('replays a create sent again with the same Idempotency-Key', async () => {
      const user = await provisionOwner(t.api, idp, 'proj_idem', 'proj_idem@example.com', 'First');
      const first = await t.api
        .as(user.token)
        .post('/v1/dashboard/projects')
        .set('Idempotency-Key', 'create-1')
        .send({ name: 'Once' })
        .expect(201);
      const again = await t.api
        .as(user.token)
        .post('/v1/dashboard/projects')
        .set('Idempotency-Key', 'create-1')
        .send({ name: 'Once' })
        .expect(201);
      expect(again.body.data).toEqual(first.body.data);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect((await t.api.as(user.token).get('/v1/dashboard/projects').expect(200)).body.data).toHaveLength(2);
      // The copy kept for replays shows the new secret key: it is sealed, never in clear.
      const [record]: { response_sealed: boolean; response_body: string }[] = await t.db.manager.query(
        "SELECT response_sealed, response_body FROM idempotency_records WHERE key = 'create-1'",
      );
      expect(record.response_sealed).toBe(true);
      expect(record.response_body).not.toContain(first.body.data.secret_key);
    });

    it('answers MISSING_AUTH, WRONG_AUTH_TYPE and ACCOUNT_NOT_FOUND', async () => {
      const keyed = await t.seedProject();
      expect((await t.api.post('/v1/dashboard/projects').send({ name: 'x' }).expect(401)).body.error.code).toBe('MISSING_AUTH');
      const wrong = await t.api.as(keyed.secretKey).post('/v1/dashboard/projects').send({ name: 'x' }).expect(401);
      expect(wrong.body.error.code).toBe('WRONG_AUTH_TYPE');
      const unknown = await t.api
        .as(idp.token({ sub: 'proj_nobody' }))
        .post('/v1/dashboard/projects')
        .send({ name: 'x' })
        .expect(404);
      expect(unknown.body.error.code).toBe('ACCOUNT_NOT_FOUND');
    });

    it('answers the dashboard origin with CORS, and no other origin', async () => {
      const allowed = await t.api
        .options('/v1/dashboard/projects')
        .set('Origin', 'https://app.launch.test')
        .set('Access-Control-Request-Method', 'POST')
        .set('Access-Control-Request-Headers', 'authorization,content-type,idempotency-key');
      expect(allowed.status).toBe(204);
      expect(allowed.headers['access-control-allow-origin']).toBe('https://app.launch.test');
      expect(allowed.headers['access-control-allow-methods']).toContain('DELETE');
      const routes: [string, string][] = [
        ['/v1/dashboard/projects/prj_x', 'PATCH'],
        ['/v1/dashboard/projects/prj_x', 'DELETE'],
        ['/v1/dashboard/keys', 'POST'],
        ['/v1/dashboard/keys/key_x', 'DELETE'],
        ['/v1/dashboard/keys/key_x/revoke', 'POST'],
        ['/v1/dashboard/contacts/ct_x', 'DELETE'],
      ];
      for (const [path, method] of routes) {
        const res = await t.api.options(path).set('Origin', 'https://app.launch.test').set('Access-Control-Request-Method', method);
        expect({ path, method, origin: res.headers['access-control-allow-origin'] }).toEqual({
          path,
          method,
          origin: 'https://app.launch.test',
        });
      }
      const other = await t.api
        .options('/v1/dashboard/projects')
        .set('Origin', 'https://evil.example')
        .set('Access-Control-Request-Method', 'POST');
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
    });
  });

  describe('GET /v1/dashboard/projects/{id}', () => {
    it("answers one of the account's projects, and PROJECT_NOT_FOUND for anyone else's", async () => {
      const user = await provisionOwner(t.api, idp, 'proj_get', 'proj_get@example.com', 'Gettable');
      const res = await t.api.as(user.token).get(`/v1/dashboard/projects/${user.projectId}`).expect(200);
      expect(res.body.data).toMatchObject({ id: user.projectId, name: 'Gettable', slug: user.slug, plan: 'free' });
      const other = await provisionOwner(t.api, idp, 'proj_get_other', 'proj_get_other@example.com', 'First');
      const foreign = await t.api.as(other.token).get(`/v1/dashboard/projects/${user.projectId}`).expect(404);
      expect(foreign.body.error).toMatchObject({ code: 'PROJECT_NOT_FOUND', param: 'id' });
      const cli = await t.seedProject();
      expect((await t.api.as(user.token).get(`/v1/dashboard/projects/${cli.project.id}`).expect(404)).body.error.code).toBe(
        'PROJECT_NOT_FOUND',
      );
      expect((await t.api.as(user.token).get('/v1/dashboard/projects/nope').expect(404)).body.error.code).toBe('PROJECT_NOT_FOUND');
    });

    it("refuses the project's test-mode twin", async () => {
      const user = await provisionOwner(t.api, idp, 'proj_twin', 'proj_twin@example.com', 'First');
      const twin = await t.db.transaction((em) => t.get(ProjectsService).testTwinOf(em, user.projectId));
      expect((await t.api.as(user.token).get(`/v1/dashboard/projects/${twin.id}`).expect(404)).body.error.code).toBe('PROJECT_NOT_FOUND');
      expect((await t.api.as(user.token).delete(`/v1/dashboard/projects/${twin.id}`).expect(404)).body.error.code).toBe(
        'PROJECT_NOT_FOUND',
      );
    });
  });

  describe('DELETE /v1/dashboard/projects/{id}', () => {
    it('refuses to delete the only project with LAST_PROJECT', async () => {
      const user = await provisionOwner(t.api, idp, 'proj_last', 'proj_last@example.com', 'First');
      const res = await t.api.as(user.token).delete(`/v1/dashboard/projects/${user.projectId}`).expect(409);
      expect(res.body.error).toMatchObject({ code: 'LAST_PROJECT', param: 'id' });
      await t.api.as(user.token).get(`/v1/dashboard/projects/${user.projectId}`).expect(200);
    });

    it('never deletes the last two projects at once', async () => {
      const user = await provisionOwner(t.api, idp, 'proj_last_race', 'proj_last_race@example.com', 'First');
      const second = await t.api.as(user.token).post('/v1/dashboard/projects').send({ name: 'Second' }).expect(201);
      const results = await Promise.all(
        [user.projectId, second.body.data.project.id].map((id) => t.api.as(user.token).delete(`/v1/dashboard/projects/${id}`)),
      );
      expect(results.map((res) => res.status).sort()).toEqual([200, 409]);
      expect((await t.api.as(user.token).get('/v1/dashboard/projects').expect(200)).body.data).toHaveLength(1);
    });

    it('deletes the project with all its data, stops its keys at once and holds its slug 30 days', async () => {
      const user = await provisionOwner(t.api, idp, 'proj_delete', 'proj_delete@example.com', 'First');
      const made = await t.api.as(user.token).post('/v1/dashboard/projects').send({ name: 'Doomed', slug: 'doomed-app' }).expect(201);
      const { project, secret_key: secretKey } = made.body.data;
      await t.api.as(secretKey).get('/v1/setup-check').expect(200);
      await t.api.as(secretKey).post('/v1/waitlist/signups').send({ email: 'fan@example.com' }).expect(201);
      await t.api
        .as(secretKey)
        .post('/v1/feedback')
        .send({ feedback_text: 'Please add dark mode soon', email: 'fan@example.com' })
        .expect(201);
      const testKey = await t.api
        .as(user.token)
        .post('/v1/dashboard/keys')
        .set('X-Service-Project', project.id)
        .send({ type: 'secret', mode: 'test' })
        .expect(201);
      await t.api.as(testKey.body.data.key).post('/v1/waitlist/signups').send({ email: 'tester@example.com' }).expect(201);

      const res = await t.api.as(user.token).delete(`/v1/dashboard/projects/${project.id}`).expect(200);
      expect(res.body.data).toEqual({ id: project.id, deleted: true });
      expect((await t.api.as(secretKey).get('/v1/setup-check').expect(401)).body.error.code).toBe('INVALID_API_KEY');
      expect((await t.api.as(testKey.body.data.key).get('/v1/setup-check').expect(401)).body.error.code).toBe('INVALID_API_KEY');
      // Every table that holds project data answers nothing for it, test-mode twin included.
      const tables: { table_name: string }[] = await t.db.manager.query(
        `SELECT DISTINCT table_name FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'project_id' AND table_name <> 'project_slug_history'`,
      );
      expect(tables.length).toBeGreaterThan(20);
      for (const { table_name: table } of tables) {
        const [row] = await t.db.manager.query(
          `SELECT count(*)::int AS n FROM "${table}" WHERE project_id = $1 OR project_id IN (SELECT id FROM projects WHERE live_project_id = $1)`,
          [project.id],
        );
        expect({ table, rows: row.n }).toEqual({ table, rows: 0 });
      }
      expect(await t.db.manager.query('SELECT id FROM projects WHERE id = $1 OR live_project_id = $1', [project.id])).toEqual([]);
      // Jobs queued for it find nothing and end.
      await t.drainJobs();

      const other = await provisionOwner(t.api, idp, 'proj_delete_other', 'proj_delete_other@example.com', 'First');
      const held = await t.api.as(other.token).post('/v1/dashboard/projects').send({ name: 'Taker', slug: 'doomed-app' }).expect(409);
      expect(held.body.error).toMatchObject({ code: 'SLUG_TAKEN', param: 'slug' });
      // The hosted page of a deleted project redirects nowhere.
      await t.api.get('/changelog/doomed-app').expect(404);
      t.clock.advance(30 * DAY_MS);
      const taken = await t.api.as(other.token).post('/v1/dashboard/projects').send({ name: 'Taker', slug: 'doomed-app' }).expect(201);
      expect(taken.body.data.project.slug).toBe('doomed-app');
    });

    it("answers PROJECT_NOT_FOUND for another account's project and leaves it alone", async () => {
      const owner = await provisionOwner(t.api, idp, 'proj_del_owner', 'proj_del_owner@example.com', 'First');
      await t.api.as(owner.token).post('/v1/dashboard/projects').send({ name: 'Two' }).expect(201);
      const intruder = await provisionOwner(t.api, idp, 'proj_del_intruder', 'proj_del_intruder@example.com', 'First');
      const res = await t.api.as(intruder.token).delete(`/v1/dashboard/projects/${owner.projectId}`).expect(404);
      expect(res.body.error.code).toBe('PROJECT_NOT_FOUND');
      await t.api.as(owner.token).get(`/v1/dashboard/projects/${owner.projectId}`).expect(200);
    });
  });
});
