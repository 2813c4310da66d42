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
});
