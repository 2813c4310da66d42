import { AccountEntity } from '../../src/accounts/entities/account.entity';
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

    it('refuses a token without an expiry, whatever else it carries', async () => {
      const res = await t.api
        .as(idp.token({ sub: 'user_no_exp', noExpiry: true }))
        .post('/v1/auth/provision')
        .send({})
        .expect(401);
      expect(res.body.error).toMatchObject({ code: 'INVALID_CLERK_TOKEN', message: 'The sign-in token has no expiry (exp).' });
      expect(await t.db.manager.count(AccountEntity, { where: { subject: 'user_no_exp' } })).toBe(0);
    });

    it('refuses a token issued or starting more than a minute ahead of its clock, and allows a minute of skew', async () => {
      const refused: [Parameters<TestIdentityProvider['token']>[0], string][] = [
        [{ sub: 'user_future_iat', issuedInSeconds: 120 }, 'The sign-in token was issued more than a minute in the future (iat).'],
        [{ sub: 'user_future_nbf', notBeforeInSeconds: 120 }, 'The sign-in token is not valid yet.'],
      ];
      for (const [options, message] of refused) {
        const res = await t.api.as(idp.token(options)).post('/v1/auth/provision').send({}).expect(401);
        expect(res.body.error).toMatchObject({ code: 'INVALID_CLERK_TOKEN', param: 'Authorization', message });
      }
      expect(await t.db.manager.count(AccountEntity, { where: [{ subject: 'user_future_iat' }, { subject: 'user_future_nbf' }] })).toBe(0);

      const skewed = await t.api
        .as(idp.token({ sub: 'user_skewed', issuedInSeconds: 30, notBeforeInSeconds: 30 }))
        .post('/v1/auth/provision')
        .send({})
        .expect(200);
      expect(skewed.body.data).toMatchObject({ created: true, account: { id: expect.stringMatching(/^acct_/) } });
    });

    it('refuses control characters in sub or email, and subjects that are not strings', async () => {
      const cases: [unknown, unknown, RegExp][] = [
        ['user\u0000nul', undefined, /subject/],
        ['user\u0007bell', undefined, /subject/],
        [42, undefined, /subject/],
        [{ id: 'x' }, undefined, /subject/],
        ['user_nul_email', 'a\u0000@example.com', /control characters/],
        ['user_nl_email', 'a@example.com\r\nBcc: x@evil.example', /control characters/],
      ];
      for (const [sub, email, message] of cases) {
        const res = await t.api.as(idp.token({ sub, email })).post('/v1/auth/provision').send({});
        expect({ status: res.status, code: res.body.error?.code, message: res.body.error?.message }).toEqual({
          status: 401,
          code: 'INVALID_CLERK_TOKEN',
          message: expect.stringMatching(message),
        });
      }
    });

    it('normalises the email claim first and drops it when lower-casing makes it too long', async () => {
      const grows = `\u0130da.lovela@${'d'.repeat(63)}.${'d'.repeat(63)}.${'d'.repeat(63)}.${'d'.repeat(48)}.io`;
      expect(grows).toHaveLength(254);
      const dropped = await t.api
        .as(idp.token({ sub: 'user_grows', email: grows }))
        .post('/v1/auth/provision')
        .send({})
        .expect(200);
      expect(dropped.body.data.account.email).toBeNull();
      const kept = await t.api
        .as(idp.token({ sub: 'user_cased', email: 'Founder@Example.COM' }))
        .post('/v1/auth/provision')
        .send({})
        .expect(200);
      expect(kept.body.data.account.email).toBe('founder@example.com');
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

describe('Dashboard key set', () => {
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

  it('answers unknown kids without a fetch each, and keeps serving known kids', async () => {
    await t.api
      .as(idp.token({ sub: 'user_kid' }))
      .post('/v1/auth/provision')
      .send({})
      .expect(200);
    const fetchesBefore = idp.fetches;
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => t.api.as(idp.token({ sub: 'user_kid', keyId: `made-up-${i}` })).get('/v1/dashboard/projects')),
    );
    expect(new Set(answers.map((res) => `${res.status} ${res.body.error?.code} ${res.body.error?.message}`))).toEqual(
      new Set(["401 INVALID_CLERK_TOKEN The sign-in token was signed with a key the identity provider's key set does not have."]),
    );
    // Made-up kids cost at most one re-read of the key set between them, not one each.
    expect(idp.fetches - fetchesBefore).toBeLessThanOrEqual(1);
    await t.api
      .as(idp.token({ sub: 'user_kid' }))
      .get('/v1/dashboard/projects')
      .expect(200);
  });

  it('picks up a newly published key on the next re-read', async () => {
    await t.api
      .as(idp.token({ sub: 'user_rotation' }))
      .post('/v1/auth/provision')
      .send({})
      .expect(200);
    idp.publishSecondKey();
    t.clock.advance(31_000);
    const fetchesBefore = idp.fetches;
    await t.api
      .as(idp.token({ sub: 'user_rotation', secondKey: true }))
      .get('/v1/dashboard/projects')
      .expect(200);
    await t.api
      .as(idp.token({ sub: 'user_rotation', secondKey: true }))
      .get('/v1/dashboard/projects')
      .expect(200);
    expect(idp.fetches - fetchesBefore).toBe(1);
  });
});

describe('Dashboard audience (JWT_AUDIENCE)', () => {
  let idp: TestIdentityProvider;
  let t: TestApp;

  beforeAll(async () => {
    idp = await TestIdentityProvider.start();
    t = await TestApp.start({ env: idp.env({ JWT_AUDIENCE: 'launch-dashboard' }) });
  });
  afterAll(async () => {
    await t.close();
    await idp.close();
  });

  it('accepts only tokens for the configured audience', async () => {
    for (const audience of [undefined, 'another-app']) {
      const res = await t.api
        .as(idp.token({ sub: 'user_aud', audience }))
        .post('/v1/auth/provision')
        .send({})
        .expect(401);
      expect(res.body.error).toMatchObject({ code: 'INVALID_CLERK_TOKEN', message: 'The sign-in token is meant for another audience.' });
      expect(res.body.error.message).not.toMatch(/launch-dashboard|another-app/);
    }
    await t.api
      .as(idp.token({ sub: 'user_aud', audience: 'launch-dashboard' }))
      .post('/v1/auth/provision')
      .send({})
      .expect(200);
  });
});

describe('Dashboard with an unreachable key server', () => {
  const cases: [string, () => Promise<{ env: Record<string, string>; token: string; close: () => Promise<void> }>][] = [
    [
      'a key server that never answers',
      async () => {
        const idp = await TestIdentityProvider.start({ silent: true });
        return { env: idp.env(), token: idp.token({ sub: 'user_silent' }), close: () => idp.close() };
      },
    ],
    [
      'a key server that refuses connections',
      async () => {
        const idp = await TestIdentityProvider.start();
        const setup = { env: idp.env(), token: idp.token({ sub: 'user_down' }) };
        await idp.close();
        return { ...setup, close: async () => undefined };
      },
    ],
  ];

  it.each(cases)('answers 503 SERVICE_UNAVAILABLE within about 3 s for %s, then at once', async (_name, setUp) => {
    const idp = await setUp();
    const t = await TestApp.start({ env: idp.env });
    try {
      const started = Date.now();
      const first = await t.api.as(idp.token).get('/v1/dashboard/projects').expect(503);
      expect(Date.now() - started).toBeLessThan(4_500);
      expect(first.body.error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', param: 'Authorization' });
      expect(first.body.error.message).not.toMatch(/ECONN|socket|timed out|127\.0\.0\.1/);
      expect(first.headers['retry-after']).toBe('5');
      const again = Date.now();
      await t.api.as(idp.token).get('/v1/dashboard/projects').expect(503);
      expect(Date.now() - again).toBeLessThan(500);
    } finally {
      await t.close();
      await idp.close();
    }
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
