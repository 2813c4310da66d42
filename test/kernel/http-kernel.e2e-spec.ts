import { ERRORS, ERROR_CODES } from '../../src/common/errors/error-catalog';
import { ProbeModule } from '../support/probe.module';
import { SeededProject, TestApp } from '../support/test-app';

const REQUEST_ID = /^req_[0-9A-HJKMNP-TV-Z]{26}$/;

describe('HTTP kernel', () => {
  let t: TestApp;
  let project: SeededProject;

  beforeAll(async () => {
    t = await TestApp.start({ imports: [ProbeModule] });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    project = await t.seedProject();
  });

  describe('request ids', () => {
    it('puts a fresh req_ id on every response, success or failure', async () => {
      const ok = await t.api.get('/v1/_health').expect(200);
      const failed = await t.api.get('/v1/setup-check').expect(401);
      expect(ok.headers['x-request-id']).toMatch(REQUEST_ID);
      expect(failed.headers['x-request-id']).toMatch(REQUEST_ID);
      expect(failed.headers['x-request-id']).not.toBe(ok.headers['x-request-id']);
      expect(failed.body.error.request_id).toBe(failed.headers['x-request-id']);
    });
  });

  describe('HTTP server', () => {
    it("constructs each request and response with Express's prototypes (express-messages.ts)", async () => {
      const express = t.app.getHttpAdapter().getInstance() as import('express').Express;
      const server = t.app.getHttpServer() as import('node:http').Server;
      const born: [object, object][] = [];
      const note = (req: object, res: object) => born.push([Object.getPrototypeOf(req), Object.getPrototypeOf(res)]);
      server.prependListener('request', note);
      try {
        await t.api.get('/v1/_health').expect(200);
      } finally {
        server.removeListener('request', note);
      }
      expect(born).toEqual([[express.request, express.response]]);
    });
  });

  describe('envelopes', () => {
    it('wraps success as {data, error: null}', async () => {
      const res = await t.api.get('/v1/_health').expect(200);
      expect(res.body).toEqual({ data: { status: 'ok', database: 'ok' }, error: null });
    });

    it('answers unknown routes with NOT_FOUND in the envelope', async () => {
      const res = await t.api.get('/v1/no-such-thing').expect(404);
      expect(res.headers['content-type']).toContain('application/json');
      expect(res.body).toMatchObject({ data: null, error: { code: 'NOT_FOUND', request_id: expect.stringMatching(REQUEST_ID) } });
      expect(res.body.error.remediation).toContain('/docs');
    });

    it('answers malformed JSON with VALIDATION_ERROR naming the body, never an HTML page', async () => {
      const res = await t.api
        .as(project.secretKey)
        .post('/v1/analytics/identify')
        .set('Content-Type', 'application/json')
        .send('{"user_id": "u1", ')
        .expect(400);
      expect(res.headers['content-type']).toContain('application/json');
      expect(res.body).toMatchObject({ data: null, error: { code: 'VALIDATION_ERROR', param: 'body' } });
      expect(res.body.error.message).toMatch(/not valid JSON/);
      expect(JSON.stringify(res.body)).not.toMatch(/at .*\.js:\d+/);
    });

    it('answers bodies over 1 MB with PAYLOAD_TOO_LARGE', async () => {
      const big = JSON.stringify({ user_id: 'u1', email: 'a@b.io', details: { blob: 'x'.repeat(1_100_000) } });
      const res = await t.api
        .as(project.secretKey)
        .post('/v1/analytics/identify')
        .set('Content-Type', 'application/json')
        .send(big)
        .expect(413);
      expect(res.body).toMatchObject({
        data: null,
        error: {
          code: 'PAYLOAD_TOO_LARGE',
          param: 'body',
          message: 'The body is larger than 1 MB.',
          remediation: 'Send a body of at most 1 MB.',
        },
      });
    });

    it('turns unexpected errors into INTERNAL_ERROR without leaking the cause', async () => {
      const res = await t.api.as(project.secretKey).post('/v1/_probe/things').send({ name: 'x', fail_with: 'crash' }).expect(500);
      expect(res.body).toMatchObject({ data: null, error: { code: 'INTERNAL_ERROR' } });
      expect(JSON.stringify(res.body)).not.toContain('probe crash');
    });
  });

  describe('validation', () => {
    it('names the first offending field in param', async () => {
      const res = await t.api.as(project.secretKey).post('/v1/_probe/things').send({ name: '' }).expect(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'name' });
    });

    it('uses a dotted path for nested fields', async () => {
      const res = await t.api
        .as(project.secretKey)
        .post('/v1/_probe/things')
        .send({ name: 'ok', nested: { inner: { code: 'NOT lower' } } })
        .expect(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'nested.inner.code' });
      expect(res.body.error.message).toMatch(/^Nested\.inner\.code /);
    });

    it('refuses NUL characters, which PostgreSQL cannot store, instead of failing later', async () => {
      const res = await t.api
        .as(project.secretKey)
        .post('/v1/analytics/identify')
        .send({ user_id: 'a\u0000b', email: 'a@example.com' })
        .expect(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'user_id' });
    });

    it('refuses unknown fields by name', async () => {
      const res = await t.api.as(project.secretKey).post('/v1/_probe/things').send({ name: 'ok', surprise: 1 }).expect(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'surprise', message: 'Unknown field "surprise".' });
    });
  });

  describe('error catalog', () => {
    it('has every code of the spec with its HTTP status', () => {
      const spec: Record<string, number> = {
        MISSING_AUTH: 401,
        INVALID_API_KEY: 401,
        REVOKED_API_KEY: 401,
        WRONG_AUTH_TYPE: 401,
        INVALID_CLERK_TOKEN: 401,
        ACCOUNT_NOT_FOUND: 404,
        VALIDATION_ERROR: 400,
        INVALID_PLAN: 400,
        RATE_LIMITED: 429,
        PLAN_LIMIT_REACHED: 403,
        PLAN_UPGRADE_REQUIRED: 403,
        NOT_FOUND: 404,
        CANNOT_EDIT_PUBLISHED: 409,
        HOSTNAME_ALREADY_REGISTERED: 409,
        IDEMPOTENCY_CONFLICT: 409,
        DUPLICATE_SIGNUP: 409,
        BILLING_NOT_CONFIGURED: 503,
        NO_BILLING_ACCOUNT: 404,
        BILLING_PORTAL_UNAVAILABLE: 502,
        CUSTOM_DOMAIN_NOT_CONFIGURED: 503,
        CUSTOM_DOMAIN_LIMIT_REACHED: 403,
        KEY_INSUFFICIENT_PERMISSIONS: 403,
        API_KEY_LIMIT_REACHED: 422,
        INVALID_SLUG: 422,
        SLUG_TAKEN: 409,
        PROJECT_LIMIT_REACHED: 403,
        LAST_PROJECT: 409,
        PROJECT_NOT_FOUND: 404,
        SLUG_CHANGE_LIMIT_REACHED: 429,
        PROCESSOR_NOT_CONNECTED: 409,
        PROCESSOR_ALREADY_CONNECTED: 409,
        PROCESSOR_KEY_NOT_RESTRICTED: 422,
        PROCESSOR_KEY_INVALID: 422,
        PROCESSOR_KEY_MISSING_PERMISSION: 422,
        PROCESSOR_CONNECTION_LIMIT_REACHED: 403,
        PROCESSOR_CONNECT_NOT_CONFIGURED: 503,
        CONTACT_NOT_FOUND: 404,
        EMAIL_TEMPLATE_INVALID: 422,
        INTERNAL_ERROR: 500,
        TURNSTILE_FAILED: 400,
        USER_HASH_INVALID: 403,
        SIGNING_SECRET_ALREADY_SHOWN: 409,
        INVALID_WEBHOOK_URL: 422,
        WEBHOOK_LIMIT_REACHED: 403,
        NO_REACHABLE_RECIPIENTS: 422,
        TOO_MANY_RECIPIENTS: 422,
      };
      for (const [code, status] of Object.entries(spec)) {
        expect({ code, status: ERRORS[code as keyof typeof ERRORS]?.status }).toEqual({ code, status });
      }
      for (const code of ERROR_CODES) expect(ERRORS[code].remediation.length).toBeGreaterThan(20);
    });
  });
});
