import { readFileSync } from 'node:fs';
import { OPENAPI_PATH } from '../../src/openapi/openapi-file';
import { ProjectsService } from '../../src/projects/projects.service';
import { WebhookHostResolver } from '../../src/webhooks/url-policy/host-resolver.service';
import { type DashboardOwner, provisionOwner } from '../support/dashboard-owner';
import { TestIdentityProvider } from '../support/identity-provider';
import { TestApp } from '../support/test-app';
import { EXAMPLE_PROCESSOR_KEY, type ExampleContext, NOT_RUNNABLE, REQUEST_EXAMPLE_FIXTURES } from './request-example-fixtures';
import { StripeFakes } from './stripe-fakes';

/**
 * Every request body example of the committed document, each named example included, runs as
 * shown: the test seeds what the operation needs, fills in the path parameters, sends the example
 * unchanged with the key the operation's security names, and expects a documented success (the API
 * client checks the answer against the document). A new operation with an example needs a row in
 * request-example-fixtures.ts, or a reason in NOT_RUNNABLE.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const document: Json = JSON.parse(readFileSync(OPENAPI_PATH, 'utf8'));

interface ExampleCase {
  method: string;
  path: string;
  operation: Json;
  mediaType: string;
  name: string;
  value: unknown;
}

function resolveExample(node: Json): Json {
  if (typeof node.$ref !== 'string') return node;
  return document.components.examples[node.$ref.split('/').pop()!];
}

const cases: ExampleCase[] = Object.entries<Json>(document.paths).flatMap(([path, methods]) =>
  Object.entries<Json>(methods).flatMap(([method, operation]) =>
    Object.entries<Json>(operation.requestBody?.content ?? {}).flatMap(([mediaType, media]) => {
      const named = Object.entries<Json>(media.examples ?? {}).map(([name, example]) => ({ name, value: resolveExample(example).value }));
      const single = media.example === undefined ? [] : [{ name: 'example', value: media.example }];
      return [...named, ...single].map(({ name, value }) => ({ method, path, operation, mediaType, name, value }));
    }),
  ),
);
const withExamples = [...new Set(cases.map((example) => example.operation.operationId as string))].sort();

/** A form is sent as Swagger UI sends it: one `name=value` pair per item of an array. */
function encodeBody(mediaType: string, value: unknown): string | object {
  if (!mediaType.endsWith('x-www-form-urlencoded')) return value as object;
  const pairs = Object.entries(value as Json).flatMap(([name, item]) =>
    (Array.isArray(item) ? item : [item]).map((one): [string, string] => [name, String(one)]),
  );
  return new URLSearchParams(pairs).toString();
}

/** The scheme the test authorises with: the secret key where the operation takes it (Swagger UI's first box). */
function schemeOf(operation: Json): string | null {
  const schemes = (operation.security as Json[]).flatMap((requirement) => Object.keys(requirement));
  if (schemes.length === 0) return null;
  return schemes.includes('secret_key') ? 'secret_key' : schemes[0];
}

/** The path with its parameters filled in, and the required query parameters, from the fixture's values. */
function urlOf(example: ExampleCase, values: Record<string, string>): string {
  const operationId = example.operation.operationId as string;
  const path = example.path.replace(/\{([^}]+)\}/g, (_whole, name: string) => {
    if (values[name] === undefined) throw new Error(`${operationId}: the fixture gives no path parameter ${name}`);
    return encodeURIComponent(values[name]);
  });
  const query = ((example.operation.parameters ?? []) as Json[]).filter((parameter) => parameter.in === 'query' && parameter.required);
  if (query.length === 0) return path;
  return `${path}?${new URLSearchParams(query.map((parameter): [string, string] => [parameter.name, values[parameter.name]])).toString()}`;
}

/** The bearer token the operation's security names, and X-Service-Project where it is a parameter. */
function headersOf(example: ExampleCase, owner: DashboardOwner, token: string | undefined): Record<string, string> {
  const scheme = schemeOf(example.operation);
  const keys: Record<string, string> = { secret_key: owner.secretKey, publishable_key: owner.publishableKey, dashboard_jwt: owner.token };
  const bearer = token ?? (scheme ? keys[scheme] : undefined);
  const headers: Record<string, string> = bearer ? { Authorization: `Bearer ${bearer}` } : {};
  const parameters = (example.operation.parameters ?? []) as Json[];
  if (parameters.some((parameter) => parameter.name === 'X-Service-Project')) headers['X-Service-Project'] = owner.projectId;
  return headers;
}

describe('request body examples in openapi/openapi.json', () => {
  let idp: TestIdentityProvider;
  let stripe: StripeFakes;
  let t: TestApp;
  let owners = 0;

  beforeAll(async () => {
    idp = await TestIdentityProvider.start();
    stripe = await StripeFakes.start();
    stripe.reads.addKey(EXAMPLE_PROCESSOR_KEY);
    t = await TestApp.start({
      // The operator settings the examples assume: a dashboard at https://app.example.com, custom domains on.
      env: idp.env({ ...stripe.env(), DASHBOARD_ORIGINS: 'https://app.example.com', CUSTOM_DOMAIN_CNAME_TARGET: 'domains.launch.test' }),
    });
    // No DNS in tests: the names that resolve to public addresses on the internet do so here, others not
    // (a webhook example at hooks.example.com would be refused by any server).
    const publicNames: Record<string, string[]> = { 'example.com': ['93.184.215.14'] };
    jest.spyOn(t.get(WebhookHostResolver), 'resolve').mockImplementation(async (hostname) => publicNames[hostname] ?? []);
  });
  afterAll(async () => {
    await t?.close();
    await stripe?.close();
    await idp?.close();
  });

  it('has a fixture or a written reason for every operation with an example, and no stale row', () => {
    const covered = [...Object.keys(REQUEST_EXAMPLE_FIXTURES), ...Object.keys(NOT_RUNNABLE)].sort();
    expect(covered).toEqual(withExamples);
    expect(Object.keys(REQUEST_EXAMPLE_FIXTURES).filter((id) => id in NOT_RUNNABLE)).toEqual([]);
  });

  const runnable = cases.filter((example) => !(example.operation.operationId in NOT_RUNNABLE));
  it.each(runnable.map((example) => [`${example.operation.operationId} ${example.name}`, example] as const))(
    '%s runs as documented',
    async (_title, example) => {
      const operationId = example.operation.operationId as string;
      const fixture = REQUEST_EXAMPLE_FIXTURES[operationId];
      if (!fixture) throw new Error(`${operationId}: add a row to request-example-fixtures.ts (or a reason to NOT_RUNNABLE)`);
      owners += 1;
      const owner = await provisionOwner(t.api, idp, `owner-${owners}`);
      await t.get(ProjectsService).setPlan(owner.projectId, fixture.plan ?? 'builder');
      const context: ExampleContext = { t, owner, idp, example: example.name };
      const values: Record<string, string> = { ...(await fixture.prepare?.(context)) };

      const res = await t.api[example.method as 'post'](urlOf(example, values))
        .set(headersOf(example, owner, fixture.token?.(context)))
        .type(example.mediaType)
        .send(encodeBody(example.mediaType, example.value));

      const documented = Object.keys(example.operation.responses).filter((status) => status.startsWith('2'));
      expect({ status: res.status, body: res.status >= 300 ? res.body : 'ok' }).toEqual({
        status: fixture.status ?? Number(documented[0]),
        body: 'ok',
      });
    },
  );
});
