import { AccountEntity } from '../../src/auth/entities/account.entity';
import { MailMessageEntity } from '../../src/infra/mail/entities/mail-message.entity';
import { TestIdentityProvider } from '../support/identity-provider';
import { TestApp } from '../support/test-app';

describe('Dashboard sign-in', () => {
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

  describe('POST /v1/auth/provision', () => {
    it('creates the account, its first Free project and keys shown once', async () => {
      const token = idp.token({ sub: 'user_provision_1', email: 'founder@example.com' });
      const res = await t.api.as(token).post('/v1/auth/provision').send({ project_name: 'Rocket' }).expect(200);
      expect(res.body.data).toMatchObject({
        created: true,
        account: { id: expect.stringMatching(/^acct_/), email: 'founder@example.com' },
        project: { id: expect.stringMatching(/^prj_/), name: 'Rocket', slug: 'rocket', plan: 'free' },
        secret_key: expect.stringMatching(/^svc_live_[0-9A-Za-z]{32}$/),
        publishable_key: expect.stringMatching(/^svc_pub_live_[0-9A-Za-z]{32}$/),
      });
      expect(res.body.data.project.changelog_public_url).toBe('https://launch.test/changelog/rocket');
      const setup = await t.api.as(res.body.data.secret_key).get('/v1/setup-check').expect(200);
      expect(setup.body.data.project_id).toBe(res.body.data.project.id);
    });

    it('returns the same account and project on a second call, without new keys', async () => {
      const token = idp.token({ sub: 'user_provision_2' });
      const first = await t.api.as(token).post('/v1/auth/provision').send({}).expect(200);
      const second = await t.api.as(token).post('/v1/auth/provision').send({ project_name: 'Ignored' }).expect(200);
      expect(second.body.data).toEqual({ ...first.body.data, created: false, secret_key: null, publishable_key: null });
    });

    it('creates one account when two calls race', async () => {
      const token = idp.token({ sub: 'user_provision_race' });
      const results = await Promise.all([1, 2, 3].map(() => t.api.as(token).post('/v1/auth/provision').send({})));
      expect(results.map((res) => res.status)).toEqual([200, 200, 200]);
      expect(results.filter((res) => res.body.data.created)).toHaveLength(1);
      expect(new Set(results.map((res) => res.body.data.project.id)).size).toBe(1);
      expect(await t.db.manager.count(AccountEntity, { where: { subject: 'user_provision_race' } })).toBe(1);
    });

    it('sends a welcome email through the mail outbox', async () => {
      const token = idp.token({ sub: 'user_provision_mail', email: 'mail@example.com' });
      const res = await t.api.as(token).post('/v1/auth/provision').send({}).expect(200);
      await t.drainJobs();
      const mail = await t.db.manager.findOneByOrFail(MailMessageEntity, { recipient: 'mail@example.com' });
      expect(mail).toMatchObject({ kind: 'account.welcome', status: 'logged', projectId: res.body.data.project.id, attempts: 1 });
      expect(mail.textBody).toContain('https://launch.test/v1/setup-check');
      expect(mail.sentAt).toBeInstanceOf(Date);
    });

    it('refuses API keys with WRONG_AUTH_TYPE', async () => {
      const keyed = await t.seedProject();
      const res = await t.api.as(keyed.secretKey).post('/v1/auth/provision').send({}).expect(401);
      expect(res.body.error.code).toBe('WRONG_AUTH_TYPE');
    });

    it('refuses bad signatures, expired tokens, other issuers and other algorithms with INVALID_CLERK_TOKEN', async () => {
      const cases: [string, RegExp][] = [
        [idp.token({ sub: 'u', foreignKey: true }), /bad signature/],
        [idp.token({ sub: 'u', expiresInSeconds: -60 }), /expired/],
        [idp.token({ sub: 'u', issuer: 'https://evil.example/' }), /another issuer/],
        [idp.token({ sub: 'u', algorithm: 'HS256' }), /RS256/],
        ['eyJhbGciOiJSUzI1NiJ9.bm90IGpzb24.c2ln', /malformed/],
      ];
      for (const [token, message] of cases) {
        const res = await t.api.as(token).post('/v1/auth/provision').send({}).expect(401);
        expect(res.body.error).toMatchObject({
          code: 'INVALID_CLERK_TOKEN',
          param: 'Authorization',
          message: expect.stringMatching(message),
        });
        // Our words, never the library's.
        expect(res.body.error.message).not.toMatch(/jwt|invalid signature|evil\.example/);
      }
    });

    it('refuses a subject it cannot store and ignores an unusable email claim', async () => {
      const long = await t.api
        .as(idp.token({ sub: 's'.repeat(256) }))
        .post('/v1/auth/provision')
        .send({})
        .expect(401);
      expect(long.body.error.code).toBe('INVALID_CLERK_TOKEN');
      const res = await t.api
        .as(idp.token({ sub: 'user_odd_email', email: `${'x'.repeat(260)}@example.com` }))
        .post('/v1/auth/provision')
        .send({})
        .expect(200);
      expect(res.body.data.account.email).toBeNull();
    });

    it('validates the body', async () => {
      const res = await t.api
        .as(idp.token({ sub: 'u_validate' }))
        .post('/v1/auth/provision')
        .send({ project_name: '' })
        .expect(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'project_name' });
    });
  });

  describe('GET /v1/dashboard/projects', () => {
    it("lists the account's projects", async () => {
      const token = idp.token({ sub: 'user_list' });
      const provisioned = await t.api.as(token).post('/v1/auth/provision').send({ project_name: 'Listed' }).expect(200);
      const res = await t.api.as(token).get('/v1/dashboard/projects').expect(200);
      expect(res.body.data).toEqual([provisioned.body.data.project]);
    });

    it('answers ACCOUNT_NOT_FOUND before provisioning', async () => {
      const res = await t.api
        .as(idp.token({ sub: 'user_unknown' }))
        .get('/v1/dashboard/projects')
        .expect(404);
      expect(res.body.error.code).toBe('ACCOUNT_NOT_FOUND');
      expect(res.body.error.remediation).toContain('/v1/auth/provision');
    });

    it('answers MISSING_AUTH and WRONG_AUTH_TYPE', async () => {
      const keyed = await t.seedProject();
      expect((await t.api.get('/v1/dashboard/projects').expect(401)).body.error.code).toBe('MISSING_AUTH');
      expect((await t.api.as(keyed.publishableKey).get('/v1/dashboard/projects').expect(401)).body.error.code).toBe('WRONG_AUTH_TYPE');
    });
  });

  describe('GET /v1/dashboard/setup-check', () => {
    it('uses the project named in X-Service-Project', async () => {
      const token = idp.token({ sub: 'user_scoped' });
      const provisioned = await t.api.as(token).post('/v1/auth/provision').send({}).expect(200);
      const projectId = provisioned.body.data.project.id;
      const res = await t.api.as(token).get('/v1/dashboard/setup-check').set('X-Service-Project', projectId).expect(200);
      expect(res.body.data).toMatchObject({ project_id: projectId, plan: 'free' });
    });

    it("answers PROJECT_NOT_FOUND for a missing header or another account's project", async () => {
      const keyed = await t.seedProject();
      const token = idp.token({ sub: 'user_scoped_2' });
      await t.api.as(token).post('/v1/auth/provision').send({}).expect(200);
      const missing = await t.api.as(token).get('/v1/dashboard/setup-check').expect(404);
      expect(missing.body.error).toMatchObject({ code: 'PROJECT_NOT_FOUND', param: 'X-Service-Project' });
      const foreign = await t.api.as(token).get('/v1/dashboard/setup-check').set('X-Service-Project', keyed.project.id).expect(404);
      expect(foreign.body.error.code).toBe('PROJECT_NOT_FOUND');
    });
  });
});

describe('Dashboard without an identity provider', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.close());

  it('answers INVALID_CLERK_TOKEN when JWT_JWKS_URL is unset', async () => {
    const res = await t.api.as('eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1In0.c2ln').get('/v1/dashboard/projects').expect(401);
    expect(res.body.error).toMatchObject({ code: 'INVALID_CLERK_TOKEN', message: 'Dashboard sign-in is not configured on this server.' });
  });
});
