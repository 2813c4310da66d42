import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { declaredPathParams } from '../../src/common/http/path-param.pipe';
import { ProjectsService } from '../../src/projects/projects.service';
import { provisionOwner, type DashboardOwner } from '../support/dashboard-owner';
import { TestIdentityProvider } from '../support/identity-provider';
import { TestApp } from '../support/test-app';

type Json = Record<string, unknown>;

const document = JSON.parse(readFileSync(join(__dirname, '../../openapi/openapi.json'), 'utf8')) as Json;
const ULID = '01JD3Z4Q9X8V7T6S5R4Q3P2N1M';

interface Route {
  method: string;
  path: string;
  operation: Json;
  parameters: Json[];
}

const routes: Route[] = Object.entries(document.paths as Record<string, Json>)
  .flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ method, path, operation: operation as Json })))
  .map((route) => ({ ...route, parameters: ((route.operation.parameters as Json[]) ?? []).filter((parameter) => parameter.in === 'path') }))
  .filter((route) => route.parameters.length > 0);

const isPage = (route: Route) => Object.keys(((route.operation.responses as Json)['404'] as Json).content as Json).includes('text/html');

/** Values no id, slug, token or name has; percent-encoded as a client sends them. */
const MALFORMED: [string, string][] = [
  ['a NUL byte', 'a%00b'],
  ['only a NUL byte', '%00'],
  ['a byte that is not UTF-8', '%FF'],
  ['an encoded lone surrogate', '%ED%A0%80'],
  ['a truncated escape', 'ab%E2%82'],
  ['CR LF', 'x%0D%0Ay'],
  ['SQL', encodeURIComponent("x' OR '1'='1")],
  ['a very long value', 'x'.repeat(2000)],
];

/** A value of the parameter's shape that names nothing: an unknown id, slug or token. */
function wellFormedUnknown(parameter: Json): string | null {
  const schema = parameter.schema as Json;
  if (Array.isArray(schema.enum)) return null;
  const pattern = String(schema.pattern ?? '');
  const prefix = /^\^([a-z]+)_/.exec(pattern)?.[1];
  if (prefix) return `${prefix}_${ULID}`;
  return 'nosuchvalue7';
}

/** Another shape: an id of another kind, or an id where a slug, token or name belongs. */
function wrongKind(parameter: Json): string {
  return String((parameter.schema as Json).pattern ?? '').startsWith('^ce_') ? `prj_${ULID}` : `ce_${ULID.toLowerCase()}`;
}

describe('path parameters on every route', () => {
  let t: TestApp;
  let idp: TestIdentityProvider;
  let owner: DashboardOwner;
  let slug: string;

  beforeAll(async () => {
    idp = await TestIdentityProvider.start();
    t = await TestApp.start({ env: idp.env({ CUSTOM_DOMAIN_CNAME_TARGET: 'domains.launch.test' }) });
    owner = await provisionOwner(t.api, idp, 'path-params-owner');
    // Builder: the plan gate of a route (after-reading) answers before its parameters are read.
    await t.get(ProjectsService).setPlan(owner.projectId, 'builder');
    slug = (await t.get(ProjectsService).findById(owner.projectId))!.slug;
  });
  afterAll(async () => {
    await t.close();
    await idp.close();
  });

  function call(route: Route, values: Record<string, string>) {
    const path = route.path.replace(/\{([^}]+)\}/g, (_match, name: string) => values[name]);
    // Calls for an end user name one (a secret key needs no hash).
    const forUser = ((route.operation.parameters as Json[]) ?? []).some((parameter) => parameter.name === 'user_id');
    const url = forUser ? `${path}?user_id=path-params-user` : path;
    const schemes = ((route.operation.security as Json[]) ?? []).flatMap((entry) => Object.keys(entry));
    const dashboard = schemes.includes('dashboard_jwt');
    const api = schemes.length === 0 ? t.api : t.api.as(dashboard ? owner.token : owner.secretKey);
    const req = (api as unknown as Record<string, (path: string) => ReturnType<typeof api.get>>)[route.method](url);
    if (dashboard) req.set('X-Service-Project', owner.projectId);
    const media = ((route.operation.requestBody as Json | undefined)?.content as Record<string, Json> | undefined)?.['application/json'];
    // An operation with modes documents named examples; the first is the one Swagger UI shows.
    const example = media?.example ?? Object.values((media?.examples ?? {}) as Record<string, Json>)[0]?.value;
    return media ? req.send(example as object) : req;
  }

  it('reads every path parameter of every route through the one path parameter pipe', () => {
    const discovery = t.app.get(DiscoveryService);
    const scanner = t.app.get(MetadataScanner);
    const undeclared: string[] = [];
    let parameters = 0;
    for (const wrapper of discovery.getControllers()) {
      const instance = wrapper.instance as Record<string, unknown>;
      const prefix = (Reflect.getMetadata(PATH_METADATA, wrapper.metatype as object) as string | undefined) ?? '';
      for (const name of scanner.getAllMethodNames(Object.getPrototypeOf(instance))) {
        const handler = instance[name] as object;
        const path = Reflect.getMetadata(PATH_METADATA, handler) as string | undefined;
        if (path === undefined) continue;
        const declared = declaredPathParams(handler);
        for (const [, parameter] of `${prefix}/${path}`.matchAll(/:([A-Za-z_]+)/g)) {
          parameters += 1;
          if (!declared.includes(parameter)) {
            undeclared.push(
              `${wrapper.name}.${name} (${RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number]}) :${parameter}`,
            );
          }
        }
      }
    }
    expect(parameters).toBeGreaterThan(50);
    expect(undeclared).toEqual([]);
  });

  it('documents the shape of every path parameter', () => {
    const shapeless = routes.flatMap((route) =>
      route.parameters
        .filter((parameter) => !(parameter.schema as Json).pattern && !(parameter.schema as Json).enum)
        .map((parameter) => `${route.method} ${route.path} ${String(parameter.name)}`),
    );
    expect(routes.length).toBeGreaterThan(50);
    expect(shapeless).toEqual([]);
  });

  it.each(routes.filter((route) => !isPage(route)).map((route) => [`${route.method.toUpperCase()} ${route.path}`, route] as const))(
    '%s answers a malformed value with its own not-found code, as it answers an unknown one',
    async (_name, route) => {
      const unknown = Object.fromEntries(route.parameters.map((parameter) => [String(parameter.name), wellFormedUnknown(parameter)]));
      const baseline = Object.fromEntries(
        route.parameters.map((parameter) => {
          const schema = parameter.schema as Json;
          return [String(parameter.name), String(unknown[String(parameter.name)] ?? schema.example)];
        }),
      );
      const answers: Record<string, unknown> = {};
      const expected: Record<string, unknown> = {};
      for (const parameter of route.parameters) {
        const name = String(parameter.name);
        const notFound = unknown[name] === null ? { status: 404, code: 'NOT_FOUND' } : null;
        const reference = notFound ?? (await call(route, baseline)).body.error;
        const expectedAnswer = { status: 404, code: notFound ? 'NOT_FOUND' : reference.code, param: name };
        for (const [label, value] of [...MALFORMED, ['another kind of value', wrongKind(parameter)]]) {
          const res = await call(route, { ...baseline, [name]: value });
          answers[`${name}: ${label}`] = { status: res.status, code: res.body.error?.code, param: res.body.error?.param };
          expected[`${name}: ${label}`] = expectedAnswer;
        }
      }
      expect(answers).toEqual(expected);
    },
  );

  it.each([
    ['/changelog/{project_slug}', (value: string) => `/changelog/${value}`],
    ['/changelog/{project_slug}/{entry_id}', (value: string) => `/changelog/${slug}/${value}`],
    ['/w/{slug}', (value: string) => `/w/${value}`],
  ])('%s answers its not-found page, not JSON, for a malformed value', async (_route, url) => {
    const unknownPage = await t.api.get(url('nosuchvalue7')).expect(404);
    for (const [, value] of MALFORMED) {
      const res = await t.api.get(url(value));
      expect({ status: res.status, type: res.headers['content-type'], cache: res.headers['cache-control'] }).toEqual({
        status: 404,
        type: 'text/html; charset=utf-8',
        cache: unknownPage.headers['cache-control'],
      });
      expect(res.text).toBe(unknownPage.text);
    }
  });
});
