import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import request from 'supertest';
import { FAKE_STRIPE_SECRETS } from '../support/fake-stripe';
import { TestIdentityProvider } from '../support/identity-provider';
import { SeededProject, TestApp } from '../support/test-app';

type Json = Record<string, unknown>;

const document = JSON.parse(readFileSync(join(__dirname, '../../openapi/openapi.json'), 'utf8')) as Json;
const schemas = (document.components as Json).schemas as Record<string, Json>;

const ODD_VALUES: unknown[] = [
  null,
  0,
  -1,
  1e308,
  2.5,
  true,
  [],
  {},
  [{}],
  '',
  ' ',
  'x'.repeat(5000),
  '\ud800',
  '😀'.repeat(300),
  '%00',
  'ce_<script>',
];
const ODD_QUERY_VALUES = ['', '-1', '1e999', 'NaN', '%FF', '😀', 'x'.repeat(3000), 'true'];

function bodyProperties(operation: Json): string[] {
  const content = ((operation.requestBody as Json | undefined)?.content as Json | undefined)?.['application/json'] as Json | undefined;
  const ref = (content?.schema as Json | undefined)?.$ref as string | undefined;
  if (!ref) return [];
  return Object.keys((schemas[ref.split('/').pop() as string].properties as Json) ?? {});
}

function samplePath(template: string): string {
  return template.replace(/\{[^}]+\}/g, 'x%20y');
}

const operations: { method: string; path: string; operation: Json }[] = [];
for (const [path, methods] of Object.entries(document.paths as Record<string, Json>)) {
  for (const [method, operation] of Object.entries(methods)) operations.push({ method, path, operation: operation as Json });
}

// Every cursor-paginated list: a GET with a `cursor` query parameter.
// Key-authenticated lists; the dashboard's twins (JWT) share their services and are tested with them.
const lists = operations
  .filter(
    ({ method, operation }) => method === 'get' && ((operation.parameters as Json[] | undefined) ?? []).some((p) => p.name === 'cursor'),
  )
  .map(({ path }) => path)
  // Lists under a parent resource (a webhook's deliveries) need that parent; their suites page them.
  // The widget's list carries `next_cursor` in `data` (spec: Widget endpoints); its suite pages it.
  .filter((path) => !path.startsWith('/v1/dashboard/') && !path.includes('{') && !path.startsWith('/v1/changelog/widget/'));

const rawCursor = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
const ULID = '01JD3Z4Q9X8V7T6S5R4Q3P2N1M';

/** Cursors no list accepts: each must be 400 VALIDATION_ERROR on `cursor`, never a 500 or a page. */
const BAD_CURSORS: [string, string][] = [
  ['text that is not base64 JSON', 'not-a-cursor'],
  ['JSON that is not an object', rawCursor('position')],
  ['null', rawCursor(null)],
  ['a bare number', rawCursor(42)],
  ['an array', rawCursor([{ position: 1 }])],
  ['an empty object', rawCursor({})],
  ['a position of 0', rawCursor({ position: 0 })],
  ['a negative position', rawCursor({ position: -5 })],
  ['a fractional position', rawCursor({ position: 1.5 })],
  ['a position beyond the safe integers', rawCursor({ position: 2 ** 53 })],
  ['a position past PostgreSQL integer (2^31)', rawCursor({ position: 2 ** 31 })],
  ['the largest safe integer as a position', rawCursor({ position: 2 ** 53 - 1 })],
  ['an out-of-range number', rawCursor({ position: 1e308 })],
  ['a position as a string', rawCursor({ position: '2' })],
  ['a position in an array', rawCursor({ position: [2] })],
  ['a nested object', rawCursor({ position: { $gt: 0 } })],
  ['an id that is a number', rawCursor({ id: 123 })],
  ['an id in an array', rawCursor({ id: [`fb_${ULID}`] })],
  ['an id nested in an object', rawCursor({ id: { id: `ct_${ULID}` } })],
  ['an id of a prefix no list is ordered by', rawCursor({ id: `evt_${ULID}` })],
  ['an id with SQL in it', rawCursor({ id: "fb_' OR '1'='1" })],
  ['a huge id', rawCursor({ id: 'x'.repeat(350) })],
  ['an extra field', rawCursor({ position: 1, id: `ct_${ULID}`, extra: true })],
  ['a cursor over 512 characters', 'A'.repeat(600)],
];

/** A POST through Node's own client (supertest would re-encode a Buffer body as JSON). */
async function rawRequest(
  t: TestApp,
  path: string,
  headers: Record<string, string>,
  body: Buffer,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON answer, asserted on by the caller
): Promise<{ status: number; body: any }> {
  const server = t.app.getHttpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    return await new Promise((resolve, reject) => {
      const req = httpRequest({
        port,
        host: '127.0.0.1',
        path,
        method: 'POST',
        // A chunked body is sent in two pieces, without Content-Length.
        headers: headers['Transfer-Encoding'] ? headers : { ...headers, 'Content-Length': String(body.length) },
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      });
      req.on('error', reject);
      if (headers['Transfer-Encoding']) req.write(body.subarray(0, 10));
      req.end(headers['Transfer-Encoding'] ? body.subarray(10) : body);
    });
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

/**
 * House rule: bad input gets the error envelope, never a 500. Every documented operation receives
 * wrong types, empty and oversized strings, lone surrogates and odd query values in each field.
 */
describe('malformed input never causes a server error', () => {
  let t: TestApp;
  let project: SeededProject;
  let idp: TestIdentityProvider;

  beforeAll(async () => {
    idp = await TestIdentityProvider.start();
    // Billing and custom domains configured: unconfigured, their routes answer 503 by design.
    t = await TestApp.start({
      env: idp.env({ ...FAKE_STRIPE_SECRETS, STRIPE_API_URL: 'http://127.0.0.1:9', CUSTOM_DOMAIN_CNAME_TARGET: 'domains.launch.test' }),
    });
  });
  afterAll(async () => {
    await t.close();
    await idp.close();
  });
  beforeEach(async () => {
    project = await t.seedProject({ plan: 'builder' });
  });

  it.each(operations.map((entry) => [`${entry.method.toUpperCase()} ${entry.path}`, entry]))('%s', async (_name, entry) => {
    const { method, path, operation } = entry as (typeof operations)[number];
    const api = t.api.unchecked().as(project.secretKey);
    const failures: string[] = [];
    const check = (label: string, res: { status: number; body: { error?: { code?: string } } }) => {
      if (res.status >= 500) failures.push(`${label} → ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
    };
    const url = samplePath(path);
    const send = (query: string) => (api as unknown as Record<string, (p: string) => ReturnType<typeof api.get>>)[method](`${url}${query}`);
    if (['post', 'put', 'patch'].includes(method)) {
      for (const body of ['[]', '"text"', '42', 'null', '{"unknown":1}']) {
        check(`body ${body}`, await send('').set('Content-Type', 'application/json').send(body));
      }
      for (const property of bodyProperties(operation)) {
        for (const value of ODD_VALUES)
          check(`${property}=${JSON.stringify(value)?.slice(0, 40)}`, await send('').send({ [property]: value }));
      }
    }
    for (const parameter of ((operation.parameters as Json[] | undefined) ?? []).filter((p) => p.in === 'query')) {
      for (const value of ODD_QUERY_VALUES) {
        check(`?${parameter.name}=${value.slice(0, 20)}`, await send(`?${parameter.name}=${encodeURIComponent(value)}`));
      }
      check(`?${parameter.name} twice`, await send(`?${parameter.name}=1&${parameter.name}=2`));
    }
    expect(failures).toEqual([]);
  });

  describe('cursors of every list', () => {
    let seeded: SeededProject;
    const firstCursors = new Map<string, string>();

    beforeAll(async () => {
      seeded = await t.seedProject({ plan: 'builder' });
      const api = t.api.as(seeded.secretKey);
      for (const email of ['first@x.io', 'second@x.io']) {
        await api.post('/v1/waitlist/signups').send({ email }).expect(201);
        await api
          .post('/v1/feedback')
          .send({ feedback_text: `Feedback from ${email} about the product.`, email })
          .expect(201);
        await api.post('/v1/changelog/subscribers').send({ email }).expect(201);
        await api
          .post('/v1/changelog/entries')
          .send({ title: `Entry for ${email}`, body_markdown: 'Body.', category: 'feature', status: 'draft' })
          .expect(201);
        await api.post('/v1/notifications').send({ user_id: email, title: 'Hello', body: 'Hello there.' }).expect(201);
      }
      for (const path of lists) {
        const res = await api.get(`${path}?limit=1`).expect(200);
        firstCursors.set(path, res.body.meta.next_cursor);
      }
    });

    it('finds every list of the document', () => {
      expect(lists).toEqual(expect.arrayContaining(['/v1/waitlist/signups', '/v1/feedback', '/v1/contacts']));
    });

    it.each(lists)('%s accepts the cursor it returned and pages on from it', async (path) => {
      const cursor = firstCursors.get(path) as string;
      expect(cursor).toEqual(expect.any(String));
      const [first, second] = [
        await t.api.as(seeded.secretKey).get(`${path}?limit=1`).expect(200),
        await t.api
          .as(seeded.secretKey)
          .get(`${path}?limit=1&cursor=${encodeURIComponent(cursor)}`)
          .expect(200),
      ];
      expect(second.body.data).toHaveLength(1);
      expect(second.body.data[0]).not.toEqual(first.body.data[0]);
    });

    it.each(lists)('%s refuses malformed cursors with VALIDATION_ERROR on cursor', async (path) => {
      const others = [...firstCursors]
        .filter(([list]) => list !== path)
        .map(([list, cursor]): [string, string] => [`a cursor of ${list}`, cursor]);
      const answers: Record<string, unknown> = {};
      for (const [label, cursor] of [...BAD_CURSORS, ...others]) {
        const res = await t.api.as(seeded.secretKey).get(`${path}?cursor=${encodeURIComponent(cursor)}`);
        answers[label] = { status: res.status, code: res.body.error?.code, param: res.body.error?.param };
      }
      const expected = { status: 400, code: 'VALIDATION_ERROR', param: 'cursor' };
      expect(answers).toEqual(Object.fromEntries(Object.keys(answers).map((label) => [label, expected])));
    });
  });

  describe('hostile bodies, dates, tokens and headers', () => {
    const FEEDBACK = { feedback_text: 'The export button does nothing on Safari.' };
    const postFeedback = () => t.api.as(project.secretKey).post('/v1/feedback').set('Content-Type', 'application/json');
    const bodyRefusal = (res: { status: number; body: { error?: { code?: string; param?: string } } }) => ({
      status: res.status,
      code: res.body.error?.code,
      param: res.body.error?.param,
    });

    it.each([
      ['arrays', `{"feedback_text":"Deeply nested arrays here.","metadata":${'['.repeat(5000)}${']'.repeat(5000)}}`],
      ['objects', `{"feedback_text":"Deeply nested objects here.","x":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`],
      ['a bare array', `${'['.repeat(5000)}${']'.repeat(5000)}`],
    ])('refuses JSON nested 5,000 deep (%s) with VALIDATION_ERROR, with or without an Idempotency-Key', async (_name, body) => {
      for (const idempotencyKey of [null, 'deep-body-1']) {
        const req = postFeedback();
        if (idempotencyKey) req.set('Idempotency-Key', idempotencyKey);
        const res = await req.send(body);
        expect(bodyRefusal(res)).toEqual({ status: 400, code: 'VALIDATION_ERROR', param: 'body' });
        expect(res.body.error.message).toBe('The body nests objects and arrays deeper than 32 levels.');
      }
    });

    it('accepts nesting up to the limit, and brackets inside strings do not count', async () => {
      const res = await postFeedback().send(JSON.stringify({ feedback_text: `Brackets ${'[{"'.repeat(300)} in text.` }));
      expect(res.body.error).toBeNull();
      const atLimit = `{"feedback_text":"Exactly at the limit.","x":${'['.repeat(31)}${']'.repeat(31)}}`;
      // 32 levels parse; the DTO then refuses the unknown field, which proves the body got that far.
      expect(bodyRefusal(await postFeedback().send(atLimit))).toEqual({ status: 400, code: 'VALIDATION_ERROR', param: 'x' });
    });

    it.each([
      ['gzip', gzipSync],
      ['deflate', deflateSync],
      ['br', brotliCompressSync],
    ])('reads a %s body, and refuses a garbage one with VALIDATION_ERROR on body', async (encoding, compress) => {
      const send = (body: Buffer) =>
        rawRequest(
          t,
          '/v1/feedback',
          { Authorization: `Bearer ${project.secretKey}`, 'Content-Type': 'application/json', 'Content-Encoding': encoding },
          body,
        );
      const good = await send(compress(Buffer.from(JSON.stringify(FEEDBACK))));
      expect(good.body.error).toBeNull();
      expect(good.status).toBe(201);
      expect(good.body.data.feedback_text).toBe(FEEDBACK.feedback_text);
      for (const garbage of [Buffer.from('definitely not compressed'), Buffer.alloc(64, 0xff), compress(Buffer.from('x')).subarray(0, 4)]) {
        const res = await send(garbage);
        expect(bodyRefusal(res)).toEqual({ status: 400, code: 'VALIDATION_ERROR', param: 'body' });
        expect(res.body.error.message).not.toMatch(/incorrect header|Z_|zlib/i);
      }
    });

    it('reads a body sent in chunks without Content-Length', async () => {
      const res = await rawRequest(
        t,
        '/v1/feedback',
        { Authorization: `Bearer ${project.secretKey}`, 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
        Buffer.from(JSON.stringify(FEEDBACK)),
      );
      expect(res.status).toBe(201);
      expect(res.body.data.feedback_text).toBe(FEEDBACK.feedback_text);
    });

    it('refuses a body no parser reads (a form, plain text) on a JSON route with 415 naming Content-Type, after authentication', async () => {
      const listed = async () => (await t.api.as(project.secretKey).get('/v1/feedback').expect(200)).body.data.length as number;
      const before = await listed();
      const form = await t.api.as(project.secretKey).post('/v1/feedback').type('form').send({ feedback_text: FEEDBACK.feedback_text });
      expect(bodyRefusal(form)).toEqual({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', param: 'Content-Type' });
      expect(form.body.error).toMatchObject({
        message: 'This route takes a JSON body; the request sent Content-Type "application/x-www-form-urlencoded".',
        remediation: 'Send the body as JSON with the header Content-Type: application/json.',
      });
      const text = await t.api.as(project.secretKey).post('/v1/feedback').set('Content-Type', 'text/plain').send(JSON.stringify(FEEDBACK));
      expect(bodyRefusal(text)).toEqual({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', param: 'Content-Type' });
      expect(text.body.error.message).toBe('This route takes a JSON body; the request sent Content-Type "text/plain".');
      expect(await listed()).toBe(before);
      // Without a key the caller learns that first.
      const anonymous = await t.api.unchecked().post('/v1/feedback').type('form').send({ feedback_text: FEEDBACK.feedback_text });
      expect(bodyRefusal(anonymous)).toEqual({ status: 401, code: 'MISSING_AUTH', param: 'Authorization' });
      // An empty body is no body, whatever its Content-Type says: validation answers.
      const empty = await t.api.as(project.secretKey).post('/v1/feedback').set('Content-Type', 'text/plain').send('');
      expect(bodyRefusal(empty)).toEqual({ status: 400, code: 'VALIDATION_ERROR', param: 'feedback_text' });
    });

    it('refuses unknown content encodings with 415 UNSUPPORTED_MEDIA_TYPE', async () => {
      for (const encoding of ['compress', 'zip', 'gzip, br', 'x'.repeat(200)]) {
        const res = await t.api
          .unchecked()
          .as(project.secretKey)
          .post('/v1/feedback')
          .set('Content-Type', 'application/json')
          .set('Content-Encoding', encoding)
          .send(JSON.stringify(FEEDBACK));
        expect(bodyRefusal(res)).toEqual({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', param: 'Content-Encoding' });
        expect(res.body.error.remediation).toContain('gzip, deflate or br');
      }
    });

    it('checks email length after lower-casing on every email field', async () => {
      // 254 characters as sent; 'İ' lower-cases to two code units, so 255 as stored.
      const grows = `\u0130da.lovela@${'d'.repeat(63)}.${'d'.repeat(63)}.${'d'.repeat(63)}.${'d'.repeat(48)}.io`;
      expect(grows).toHaveLength(254);
      const api = t.api.as(project.secretKey);
      const answers = [
        await api.post('/v1/waitlist/signups').send({ email: grows }),
        await api.post('/v1/feedback').send({ ...FEEDBACK, email: grows }),
        await api.post('/v1/analytics/identify').send({ user_id: 'user_1', email: grows }),
        await api.post('/v1/waitlist/signups/resend-confirmation').send({ email: grows }),
      ];
      for (const res of answers) {
        expect(res.body.error).toMatchObject({
          code: 'VALIDATION_ERROR',
          param: 'email',
          message: 'Email must be at most 254 characters (got 255).',
        });
      }
    });

    it.each(['2026-02-31T00:00:00Z', '2026-02-29T10:00:00Z', '2026-12-31T23:59:60Z', '2026-13-01T00:00:00Z', '2026-04-31T12:00:00+02:00'])(
      'refuses the impossible date-time %s instead of shifting it',
      async (since) => {
        const res = await t.api.as(project.secretKey).get(`/v1/feedback?since=${encodeURIComponent(since)}`);
        expect(bodyRefusal(res)).toEqual({ status: 400, code: 'VALIDATION_ERROR', param: 'since' });
      },
    );

    it('accepts a real leap day', async () => {
      await t.api.as(project.secretKey).get('/v1/feedback?since=2028-02-29T00:00:00Z').expect(200);
    });

    it('refuses NUL and other control characters in JWT sub and email with INVALID_CLERK_TOKEN', async () => {
      for (const claims of [
        { sub: 'a\u0000b' },
        { sub: 'a\u001bb' },
        { sub: 'user_ok', email: 'a@b.io\u0000' },
        { sub: 'user_ok', email: 'a\u0085@b.io' },
      ]) {
        const res = await t.api.as(idp.token(claims)).post('/v1/auth/provision').send({});
        expect({ status: res.status, code: res.body.error?.code }).toEqual({ status: 401, code: 'INVALID_CLERK_TOKEN' });
      }
    });

    it('answers a token over 16 KB with the error envelope (431), not a bare status line', async () => {
      for (const path of ['/v1/setup-check', '/v1/dashboard/projects']) {
        const res = await request(t.app.getHttpServer())
          .get(path)
          .set('Authorization', `Bearer ${'x'.repeat(20_000)}`);
        expect(res.status).toBe(431);
        expect(res.headers['content-type']).toContain('application/json');
        expect(res.body).toEqual({
          data: null,
          error: {
            code: 'REQUEST_HEADERS_TOO_LARGE',
            message: 'The request headers are larger than 16 KB.',
            remediation: expect.stringContaining('16 KB'),
            param: 'Authorization',
            request_id: expect.stringMatching(/^req_[0-9A-Z]{26}$/),
          },
        });
        expect(res.headers['x-request-id']).toBe(res.body.error.request_id);
      }
      // A token just under the limit still reaches the API and is refused in the usual way.
      const below = await t.api.as(`svc_live_${'x'.repeat(12_000)}`).get('/v1/setup-check');
      expect(below.body.error.code).toBe('INVALID_API_KEY');
    });

    it('answers any header over 16 KB the same way, over a plain connection', async () => {
      const answer = await rawRequest(
        t,
        '/v1/waitlist/signups',
        { 'X-Huge': 'y'.repeat(17_000), 'Content-Type': 'application/json' },
        Buffer.from('{}'),
      );
      expect(answer.status).toBe(431);
      expect(answer.body.error).toMatchObject({ code: 'REQUEST_HEADERS_TOO_LARGE' });
    });
  });
});
