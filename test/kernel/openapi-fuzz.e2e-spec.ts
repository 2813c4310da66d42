import { readFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Response } from 'supertest';
import { ProjectsService } from '../../src/projects/projects.service';
import { provisionOwner, type DashboardOwner } from '../support/dashboard-owner';
import { FakeStripe } from '../support/fake-stripe';
import {
  HOSTILE_CURSORS,
  HOSTILE_HEADER_TEXT,
  HOSTILE_RAW_BODIES,
  HOSTILE_URL_TEXT,
  SeededChoice,
  hostileJsonValues,
} from '../support/hostile-values';
import { TestIdentityProvider } from '../support/identity-provider';
import { OpenApiValidator } from '../support/openapi-validator';
import { TestApp } from '../support/test-app';

type Json = Record<string, unknown>;

/**
 * Every operation of the committed OpenAPI document, with valid credentials for its security
 * scheme and hostile values in each path parameter, query parameter, documented header and body
 * field (derived from the operation's schema), one field at a time on an otherwise valid request.
 * The values are chosen per field by a seeded generator: every run sends the same requests. Any
 * 5xx fails, and every answer must be one the document describes (status, and body for JSON).
 */

const document = JSON.parse(readFileSync(join(__dirname, '../../openapi/openapi.json'), 'utf8')) as Json;
const schemas = (document.components as Json).schemas as Record<string, Json>;

// Per-field budgets: about 2,000 requests in all, which keeps the suite near a minute on two busy cores.
const PATH_VALUES = 6;
const QUERY_VALUES = 3;
const HEADER_VALUES = 2;
const BODY_CASES = 30;
const RAW_BODIES = 3;
/** Sent in every path parameter (the first also in every query parameter): a NUL byte, and a byte that is not UTF-8. */
const ALWAYS = ['a%00b', '%FF'];

interface Operation {
  method: string;
  path: string;
  operation: Json;
}

interface FuzzCase {
  label: string;
  pathValues: Record<string, string>;
  query: string;
  headers: Record<string, string>;
  body?: { contentType: string; text: string | Buffer };
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  body: unknown;
}

const operations: Operation[] = Object.entries(document.paths as Record<string, Json>).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({ method, path, operation: operation as Json })),
);

function resolve(schema: Json | undefined): Json {
  if (!schema) return {};
  if (typeof schema.$ref === 'string') return resolve(schemas[schema.$ref.split('/').pop() as string]);
  if (Array.isArray(schema.allOf)) {
    const parts = (schema.allOf as Json[]).map(resolve);
    return { ...Object.assign({}, ...parts), ...schema, allOf: undefined };
  }
  return schema;
}

/** Every field of a body schema as a path (`source.utm_source`, `actions.0.url`), three levels deep. */
function fieldPaths(schema: Json, prefix: string[] = [], depth = 0): { path: string[]; schema: Json }[] {
  const properties = (resolve(schema).properties ?? {}) as Record<string, Json>;
  return Object.entries(properties).flatMap(([name, raw]) => {
    const field = resolve(raw);
    const path = [...prefix, name];
    const nested =
      depth >= 2
        ? []
        : field.type === 'object' && field.properties
          ? fieldPaths(field, path, depth + 1)
          : field.type === 'array' && resolve(field.items as Json).properties
            ? fieldPaths(resolve(field.items as Json), [...path, '0'], depth + 1)
            : [];
    return [{ path, schema: field }, ...nested];
  });
}

function setPath(target: Json, path: string[], value: unknown): void {
  let node: Record<string, unknown> = target;
  for (const [index, key] of path.slice(0, -1).entries()) {
    const next = node[key];
    if (next === null || typeof next !== 'object') node[key] = /^\d+$/.test(path[index + 1]) ? [] : {};
    node = node[key] as Record<string, unknown>;
  }
  node[path[path.length - 1]] = value;
}

const clone = <T>(value: T): T => (value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T));

function parametersOf(operation: Json, where: string): Json[] {
  return ((operation.parameters as Json[] | undefined) ?? []).filter((parameter) => parameter.in === where);
}

/** The request body: its media type, schema and documented example. */
function bodyOf(operation: Json): { contentType: string; schema: Json; example: Json } | null {
  const content = (operation.requestBody as Json | undefined)?.content as Record<string, Json> | undefined;
  if (!content) return null;
  const [contentType, media] = Object.entries(content)[0];
  // An operation with modes documents named examples; the first is the one Swagger UI shows.
  const named = Object.values((media.examples ?? {}) as Record<string, Json>)[0]?.value;
  return { contentType, schema: resolve(media.schema as Json), example: (media.example ?? named ?? {}) as Json };
}

/** The example's required fields: a body the DTO accepts, to which one hostile field is added. */
function baseBody(body: { schema: Json; example: Json }): Json {
  const required = (body.schema.required as string[] | undefined) ?? [];
  return Object.fromEntries(required.filter((name) => name in body.example).map((name) => [name, clone(body.example[name])]));
}

/** Percent-encoding of the UTF-8 bytes, which (unlike encodeURIComponent) takes lone surrogates too. */
const formEncode = (text: string) => [...Buffer.from(text, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');

function encodeBody(contentType: string, value: unknown): string {
  if (contentType !== 'application/x-www-form-urlencoded') return JSON.stringify(value);
  return Object.entries((value ?? {}) as Json)
    .map(([key, item]) => `${formEncode(key)}=${formEncode(typeof item === 'string' ? item : JSON.stringify(item))}`)
    .join('&');
}

const describeValue = (value: unknown): string => (JSON.stringify(value) ?? String(value)).slice(0, 80);

function casesOf({ method, path, operation }: Operation): FuzzCase[] {
  const key = `${method.toUpperCase()} ${path}`;
  const cases: FuzzCase[] = [];
  const base: FuzzCase = { label: 'valid', pathValues: {}, query: '', headers: {} };
  const required = parametersOf(operation, 'query').filter((parameter) => parameter.required);
  base.query = required.map((parameter) => `${parameter.name}=${encodeURIComponent(String(exampleOf(parameter) ?? 'x'))}`).join('&');
  const body = bodyOf(operation);
  const withBody = (value: unknown): FuzzCase['body'] =>
    body ? { contentType: body.contentType, text: encodeBody(body.contentType, value) } : undefined;
  base.body = body ? withBody(baseBody(body)) : undefined;
  cases.push(base);

  for (const parameter of parametersOf(operation, 'path')) {
    const name = String(parameter.name);
    for (const value of [...ALWAYS, ...new SeededChoice(`${key} path ${name}`).pick(HOSTILE_URL_TEXT, PATH_VALUES)]) {
      cases.push({ ...base, label: `path ${name}=${value.slice(0, 60)}`, pathValues: { [name]: value } });
    }
  }
  for (const parameter of parametersOf(operation, 'query')) {
    const name = String(parameter.name);
    const choice = new SeededChoice(`${key} query ${name}`);
    const values = [ALWAYS[0], ...choice.pick(name === 'cursor' ? HOSTILE_CURSORS : HOSTILE_URL_TEXT, QUERY_VALUES)];
    const others = base.query
      ? `&${base.query
          .split('&')
          .filter((pair) => !pair.startsWith(`${name}=`))
          .join('&')}`
      : '';
    for (const value of values) cases.push({ ...base, label: `?${name}=${value.slice(0, 60)}`, query: `${name}=${value}${others}` });
    const [shape] = choice.pick([`${name}=1&${name}=2`, `${name}[]=x`, `${name}[a][b]=1`, `${name}`], 1);
    cases.push({ ...base, label: `?${shape}`, query: `${shape}${others}` });
  }
  for (const parameter of parametersOf(operation, 'header')) {
    const name = String(parameter.name);
    for (const value of new SeededChoice(`${key} header ${name}`).pick(HOSTILE_HEADER_TEXT, HEADER_VALUES)) {
      cases.push({ ...base, label: `header ${name}: ${value.slice(0, 40)}`, headers: { [name]: value } });
    }
  }
  if (body) {
    const fields = fieldPaths(body.schema);
    const perField = Math.min(6, Math.max(2, Math.floor(BODY_CASES / Math.max(fields.length, 1))));
    for (const field of fields) {
      const choice = new SeededChoice(`${key} body ${field.path.join('.')}`);
      for (const value of hostileJsonValues(field.schema, field.path[field.path.length - 1], choice, perField)) {
        const request = baseBody(body);
        if (field.path.length > 1 && body.example[field.path[0]] !== undefined) request[field.path[0]] = clone(body.example[field.path[0]]);
        setPath(request, field.path, value);
        cases.push({ ...base, label: `body ${field.path.join('.')}=${describeValue(value)}`, body: withBody(request) });
      }
    }
    if (body.contentType === 'application/json') {
      for (const raw of new SeededChoice(`${key} raw`).pick(HOSTILE_RAW_BODIES, RAW_BODIES)) {
        cases.push({ ...base, label: `raw body ${raw.slice(0, 60)}`, body: { contentType: body.contentType, text: raw } });
      }
      // Bytes that are not UTF-8 inside a JSON string.
      const invalid = Buffer.concat([Buffer.from('{"x":"'), Buffer.from([0xff, 0xc0, 0x80]), Buffer.from('"}')]);
      cases.push({ ...base, label: 'raw body with invalid UTF-8', body: { contentType: body.contentType, text: invalid } });
    }
  }
  return cases;
}

function exampleOf(parameter: Json): unknown {
  const schema = resolve(parameter.schema as Json);
  return parameter.example ?? schema.example ?? (Array.isArray(schema.enum) ? schema.enum[0] : undefined);
}

/** Resources of the fuzzed project, so that valid path parameters reach the services' logic. */
interface Seeds {
  owner: DashboardOwner;
  slug: string;
  ids: Record<string, string>;
}

async function seed(t: TestApp, idp: TestIdentityProvider): Promise<Seeds> {
  const owner = await provisionOwner(t.api, idp, 'fuzz-owner', 'owner@fuzz.test');
  const project = await t.get(ProjectsService).setPlan(owner.projectId, 'builder');
  const api = t.api.as(owner.secretKey);
  const dashboard = t.api.as(owner.token);
  const post = async (path: string, body: object, status = 201) => (await api.post(path).send(body).expect(status)).body.data;
  const ids: Record<string, string> = {};
  ids.ce = (await post('/v1/changelog/entries', { title: 'Fuzzed entry', body_markdown: 'Body.', category: 'feature' })).id;
  ids.lbl = (await post('/v1/changelog/labels', { name: 'Fuzz' })).id;
  ids.sub = (await post('/v1/changelog/subscribers', { email: 'subscriber@fuzz.test' })).id;
  ids.fb = (await post('/v1/feedback', { feedback_text: 'The fuzz suite leaves this feedback.' })).id;
  ids.ntf = (await post('/v1/notifications', { user_id: 'fuzz-user', title: 'Hello', body: 'Hello there.' })).id;
  await post('/v1/analytics/identify', { user_id: 'fuzz-user', email: 'person@fuzz.test' }, 200);
  ids.ct = (await api.get('/v1/contacts').expect(200)).body.data[0].id;
  ids.we = (await post('/v1/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['*'] })).id;
  await post('/v1/waitlist/signups', { email: 'signup@fuzz.test' });
  const deliveries = (await api.get(`/v1/webhooks/${ids.we}/deliveries`).expect(200)).body.data;
  if (deliveries[0]) ids.whd = deliveries[0].id;
  const asOwner = (path: string) => dashboard.post(path).set('X-Service-Project', owner.projectId);
  ids.dom = (await asOwner('/v1/dashboard/domains').send({ hostname: 'changelog.fuzz-example.com' }).expect(201)).body.data.id;
  ids.key = (await asOwner('/v1/dashboard/keys').send({ type: 'publishable' }).expect(201)).body.data.id;
  ids.prj = (await dashboard.post('/v1/dashboard/projects').send({ name: 'Fuzz spare' }).expect(201)).body.data.id;
  return { owner, slug: project.slug, ids };
}

describe('OpenAPI fuzz: no operation answers 5xx to hostile input', () => {
  let t: TestApp;
  let idp: TestIdentityProvider;
  let stripe: FakeStripe;
  let seeds: Seeds;
  let port: number;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });

  beforeAll(async () => {
    idp = await TestIdentityProvider.start();
    stripe = await FakeStripe.start();
    t = await TestApp.start({
      env: idp.env(
        stripe.env({
          CUSTOM_DOMAIN_CNAME_TARGET: 'domains.launch.test',
          WEBHOOK_ALLOW_INSECURE_URLS: 'true',
          BROWSER_RATE_LIMIT: '1000000',
          WORKERS: 'off',
        }),
      ),
    });
    seeds = await seed(t, idp);
    const server = t.app.getHttpServer();
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    agent.destroy();
    await t?.close();
    await idp?.close();
    await stripe?.close();
  });

  function pathValueOf(parameter: Json, method: string): string {
    const example = exampleOf(parameter);
    const name = String(parameter.name);
    if (/slug/.test(name)) return seeds.slug;
    const prefix = typeof example === 'string' ? /^([a-z]+)_[0-9A-Z]{26}$/.exec(example)?.[1] : undefined;
    // A DELETE never gets a seeded id: the resources stay for the operations after it.
    if (prefix && seeds.ids[prefix] && method !== 'delete') return seeds.ids[prefix];
    return encodeURIComponent(String(example ?? 'no-such-token'));
  }

  function credentialsOf(operation: Json, index: number): Record<string, string> {
    const schemes = ((operation.security as Json[] | undefined) ?? []).flatMap((entry) => Object.keys(entry));
    if (schemes.includes('dashboard_jwt'))
      return { Authorization: `Bearer ${seeds.owner.token}`, 'X-Service-Project': seeds.owner.projectId };
    const usable = schemes.filter((scheme) => scheme === 'secret_key' || scheme === 'publishable_key');
    if (usable.length === 0) return {};
    // Routes open to both keys alternate between them, case by case.
    const scheme = usable[index % usable.length];
    return { Authorization: `Bearer ${scheme === 'secret_key' ? seeds.owner.secretKey : seeds.owner.publishableKey}` };
  }

  function send(method: string, url: string, headers: Record<string, string>, body?: FuzzCase['body']): Promise<Answer> {
    return new Promise((resolveAnswer, reject) => {
      const payload = body ? Buffer.from(body.text) : null;
      const allHeaders = payload ? { ...headers, 'Content-Type': body!.contentType, 'Content-Length': String(payload.length) } : headers;
      const req = httpRequest({ host: '127.0.0.1', port, method: method.toUpperCase(), path: url, headers: allHeaders, agent });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          if ((res.headers['content-type'] ?? '').includes('application/json')) {
            try {
              parsed = JSON.parse(text);
            } catch {
              parsed = text;
            }
          }
          resolveAnswer({ status: res.statusCode ?? 0, headers: res.headers, text, body: parsed });
        });
      });
      req.on('error', reject);
      req.end(payload ?? undefined);
    });
  }

  it('covers every operation of the document with its own cases', () => {
    const counts = operations.map((entry) => casesOf(entry).length);
    expect(operations.length).toBeGreaterThan(100);
    expect(Math.min(...counts)).toBeGreaterThanOrEqual(1);
    expect(counts.reduce((sum, count) => sum + count, 0)).toBeLessThan(2500);
  });

  it.each(operations.map((entry) => [`${entry.method.toUpperCase()} ${entry.path}`, entry] as const))('%s', async (_name, entry) => {
    const failures: string[] = [];
    const pathParameters = parametersOf(entry.operation, 'path');
    for (const [index, fuzz] of casesOf(entry).entries()) {
      let url = entry.path;
      for (const parameter of pathParameters) {
        const name = String(parameter.name);
        url = url.replace(`{${name}}`, fuzz.pathValues[name] ?? pathValueOf(parameter, entry.method));
      }
      if (fuzz.query) url += `?${fuzz.query}`;
      const headers = { ...credentialsOf(entry.operation, index), ...fuzz.headers };
      const answer = await send(entry.method, url, headers, fuzz.body);
      const where = `${fuzz.label} → ${answer.status}`;
      if (answer.status >= 500) {
        failures.push(`${where} ${answer.text.slice(0, 200)}`);
        continue;
      }
      try {
        OpenApiValidator.instance().check(entry.method, url, answer as unknown as Response);
      } catch (error) {
        failures.push(`${where} does not match the document: ${(error as Error).message.slice(0, 300)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
