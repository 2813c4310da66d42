import { readFileSync } from 'node:fs';
import { join } from 'node:path';
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
const lists = operations
  .filter(
    ({ method, operation }) => method === 'get' && ((operation.parameters as Json[] | undefined) ?? []).some((p) => p.name === 'cursor'),
  )
  .map(({ path }) => path);

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

/**
 * House rule: bad input gets the error envelope, never a 500. Every documented operation receives
 * wrong types, empty and oversized strings, lone surrogates and odd query values in each field.
 */
describe('malformed input never causes a server error', () => {
  let t: TestApp;
  let project: SeededProject;

  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.close());
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
});
