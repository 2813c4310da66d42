import { KeyUsageRecorder } from '../../src/auth/key-usage.service';
import { planLimit } from '../../src/projects/plans';
import { TestIdentityProvider } from '../support/identity-provider';
import { TestApp } from '../support/test-app';
import { DashboardOwner, provisionOwner } from '../support/dashboard-owner';

describe('Dashboard API keys', () => {
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

  const keys = (user: DashboardOwner, projectId = user.projectId) => ({
    list: () => t.api.as(user.token).get('/v1/dashboard/keys').set('X-Service-Project', projectId),
    create: (body: Record<string, unknown>) =>
      t.api.as(user.token).post('/v1/dashboard/keys').set('X-Service-Project', projectId).send(body),
    remove: (id: string) => t.api.as(user.token).delete(`/v1/dashboard/keys/${id}`).set('X-Service-Project', projectId),
    revoke: (id: string) => t.api.as(user.token).post(`/v1/dashboard/keys/${id}/revoke`).set('X-Service-Project', projectId),
  });

  describe('GET /v1/dashboard/keys', () => {
    it('lists the keys with prefix and last four, never the full key', async () => {
      const user = await provisionOwner(t.api, idp, 'keys_list', 'keys_list@example.com', 'First');
      const res = await keys(user).list().expect(200);
      expect(res.body.data).toHaveLength(2);
      const secret = res.body.data.find((key: { type: string }) => key.type === 'secret');
      expect(secret).toEqual({
        id: expect.stringMatching(/^key_/),
        type: 'secret',
        mode: 'live',
        prefix: 'svc_live_',
        last_four: user.secretKey.slice(-4),
        created_at: expect.any(String),
        last_used_at: null,
        revoked_at: null,
      });
      expect(JSON.stringify(res.body)).not.toContain(user.secretKey.slice(9, 30));
      expect(JSON.stringify(res.body)).not.toContain(user.publishableKey.slice(13, 30));
    });

    it('records last use at most once a minute, after the response', async () => {
      const user = await provisionOwner(t.api, idp, 'keys_used', 'keys_used@example.com', 'First');
      const usage = t.get(KeyUsageRecorder);
      await t.api.as(user.secretKey).get('/v1/setup-check').expect(200);
      await usage.flush();
      const first = (await keys(user).list().expect(200)).body.data.find((key: { type: string }) => key.type === 'secret');
      expect(first.last_used_at).not.toBeNull();
      expect(Math.abs(new Date(first.last_used_at).getTime() - t.clock.now().getTime())).toBeLessThan(5_000);
      t.clock.advance(30_000);
      await t.api.as(user.secretKey).get('/v1/setup-check').expect(200);
      await usage.flush();
      const within = (await keys(user).list().expect(200)).body.data.find((key: { type: string }) => key.type === 'secret');
      expect(within.last_used_at).toBe(first.last_used_at);
      t.clock.advance(31_000);
      await t.api.as(user.secretKey).get('/v1/setup-check').expect(200);
      await usage.flush();
      const after = (await keys(user).list().expect(200)).body.data.find((key: { type: string }) => key.type === 'secret');
      expect(new Date(after.last_used_at).getTime() - new Date(first.last_used_at).getTime()).toBeGreaterThanOrEqual(60_000);
    });

    it("answers PROJECT_NOT_FOUND for another account's project, a missing header, and API keys with WRONG_AUTH_TYPE", async () => {
      const owner = await provisionOwner(t.api, idp, 'keys_owner', 'keys_owner@example.com', 'First');
      const intruder = await provisionOwner(t.api, idp, 'keys_intruder', 'keys_intruder@example.com', 'First');
      const routes = [
        keys(intruder, owner.projectId).list(),
        keys(intruder, owner.projectId).create({ type: 'secret' }),
        keys(intruder, owner.projectId).remove('key_x'),
        keys(intruder, owner.projectId).revoke('key_x'),
      ];
      for (const res of await Promise.all(routes)) {
        expect({ status: res.status, code: res.body.error.code, param: res.body.error.param }).toEqual({
          status: 404,
          code: 'PROJECT_NOT_FOUND',
          param: 'X-Service-Project',
        });
      }
      const missing = await t.api.as(owner.token).get('/v1/dashboard/keys').expect(404);
      expect(missing.body.error.code).toBe('PROJECT_NOT_FOUND');
      const wrong = await t.api.as(owner.secretKey).get('/v1/dashboard/keys').set('X-Service-Project', owner.projectId).expect(401);
      expect(wrong.body.error.code).toBe('WRONG_AUTH_TYPE');
    });
  });

  describe('POST /v1/dashboard/keys', () => {
    it('creates live and test keys, shown in full once, that work at once', async () => {
      const user = await provisionOwner(t.api, idp, 'keys_create', 'keys_create@example.com', 'First');
      const secret = await keys(user).create({ type: 'secret' }).expect(201);
      expect(secret.body.data).toMatchObject({
        type: 'secret',
        mode: 'live',
        prefix: 'svc_live_',
        key: expect.stringMatching(/^svc_live_[0-9A-Za-z]{32}$/),
        revoked_at: null,
        last_used_at: null,
      });
      expect(secret.body.data.last_four).toBe(secret.body.data.key.slice(-4));
      expect((await t.api.as(secret.body.data.key).get('/v1/setup-check').expect(200)).body.data.project_id).toBe(user.projectId);
      const pub = await keys(user).create({ type: 'publishable' }).expect(201);
      expect(pub.body.data.key).toMatch(/^svc_pub_live_/);
      const test = await keys(user).create({ type: 'secret', mode: 'test' }).expect(201);
      expect(test.body.data).toMatchObject({ mode: 'test', key: expect.stringMatching(/^svc_test_/) });
      await t.api.as(test.body.data.key).get('/v1/setup-check').expect(200);
      const listed = (await keys(user).list().expect(200)).body.data;
      expect(listed.map((key: { id: string }) => key.id).slice(0, 3)).toEqual([test.body.data.id, pub.body.data.id, secret.body.data.id]);
      expect(listed.every((key: Record<string, unknown>) => !('key' in key))).toBe(true);
    });

    it('validates type and mode', async () => {
      const user = await provisionOwner(t.api, idp, 'keys_validate', 'keys_validate@example.com', 'First');
      expect((await keys(user).create({}).expect(400)).body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'type' });
      expect((await keys(user).create({ type: 'admin' }).expect(400)).body.error).toMatchObject({
        code: 'VALIDATION_ERROR',
        param: 'type',
      });
      expect((await keys(user).create({ type: 'secret', mode: 'prod' }).expect(400)).body.error).toMatchObject({
        code: 'VALIDATION_ERROR',
        param: 'mode',
      });
    });

    it("caps active keys per type at the plan's limit with API_KEY_LIMIT_REACHED, also under concurrency", async () => {
      const user = await provisionOwner(t.api, idp, 'keys_cap', 'keys_cap@example.com', 'First');
      const limit = planLimit('free', 'activeSecretKeys');
      // One secret key exists already; fire more creations than the room left, all at once.
      const results = await Promise.all(Array.from({ length: limit + 2 }, () => keys(user).create({ type: 'secret' })));
      expect(results.filter((res) => res.status === 201)).toHaveLength(limit - 1);
      const refused = results.filter((res) => res.status === 422);
      expect(refused).toHaveLength(3);
      expect(refused[0].body.error).toMatchObject({
        code: 'API_KEY_LIMIT_REACHED',
        param: 'type',
        remediation: expect.stringContaining(`${limit}`),
      });
      // Publishable keys are counted apart, and a revoked key frees its place.
      await keys(user).create({ type: 'publishable' }).expect(201);
      const created = results.find((res) => res.status === 201);
      await keys(user).remove(created!.body.data.id).expect(200);
      await keys(user).create({ type: 'secret' }).expect(201);
      // Test keys have their own count on the test-mode twin.
      await keys(user).create({ type: 'secret', mode: 'test' }).expect(201);
    });
  });

  describe('DELETE /v1/dashboard/keys/{id} and POST /v1/dashboard/keys/{id}/revoke', () => {
    it('revokes a key, refused from the next request on; revoking again keeps the first time', async () => {
      const user = await provisionOwner(t.api, idp, 'keys_revoke', 'keys_revoke@example.com', 'First');
      const made = await keys(user).create({ type: 'secret' }).expect(201);
      await t.api.as(made.body.data.key).get('/v1/setup-check').expect(200);
      const res = await keys(user).remove(made.body.data.id).expect(200);
      expect(res.body.data).toMatchObject({ id: made.body.data.id, revoked_at: expect.any(String) });
      expect('key' in res.body.data).toBe(false);
      expect((await t.api.as(made.body.data.key).get('/v1/setup-check').expect(401)).body.error.code).toBe('REVOKED_API_KEY');
      t.clock.advance(60_000);
      const again = await keys(user).revoke(made.body.data.id).expect(200);
      expect(again.body.data.revoked_at).toBe(res.body.data.revoked_at);
    });

    it('revokes with POST …/revoke, test keys included', async () => {
      const user = await provisionOwner(t.api, idp, 'keys_revoke_post', 'keys_revoke_post@example.com', 'First');
      const test = await keys(user).create({ type: 'publishable', mode: 'test' }).expect(201);
      const signup = (email: string) => t.api.as(test.body.data.key).post('/v1/waitlist/signups').send({ email });
      await signup('before@example.com').expect(201);
      const res = await keys(user).revoke(test.body.data.id).expect(200);
      expect(res.body.data).toMatchObject({ id: test.body.data.id, mode: 'test', revoked_at: expect.any(String) });
      const listed = (await keys(user).list().expect(200)).body.data.find((key: { id: string }) => key.id === test.body.data.id);
      expect(listed.revoked_at).toBe(res.body.data.revoked_at);
      expect((await signup('after@example.com').expect(401)).body.error.code).toBe('REVOKED_API_KEY');
    });

    it("answers NOT_FOUND for another project's key and leaves it working", async () => {
      const user = await provisionOwner(t.api, idp, 'keys_foreign', 'keys_foreign@example.com', 'First');
      const other = await t.seedProject();
      const [foreign] = (await t.db.manager.query('SELECT id FROM api_keys WHERE project_id = $1 AND type = $2', [
        other.project.id,
        'secret',
      ])) as {
        id: string;
      }[];
      for (const res of [
        await keys(user).remove(foreign.id),
        await keys(user).revoke(foreign.id),
        await keys(user).remove('key_unknown'),
      ]) {
        expect({ status: res.status, code: res.body.error.code, param: res.body.error.param }).toEqual({
          status: 404,
          code: 'NOT_FOUND',
          param: 'id',
        });
      }
      await t.api.as(other.secretKey).get('/v1/setup-check').expect(200);
    });
  });
});
