import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { readFileSync } from 'node:fs';
import { ROUTE_POLICY } from '../../src/common/http/route-policy';
import { COMMITTED_SERVER_URL, buildOpenApiDocument } from '../../src/openapi/openapi-document';
import { OPENAPI_PATH, serializeDocument } from '../../src/openapi/openapi-file';
import { TestApp } from '../support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await TestApp.start();
});
afterAll(() => t.close());

describe('OpenAPI document', () => {
  it('is committed and current (run `npm run openapi` after changing a route or DTO)', () => {
    const generated = serializeDocument(buildOpenApiDocument(t.app, { serverUrl: COMMITTED_SERVER_URL, strict: true }));
    const committed = readFileSync(OPENAPI_PATH, 'utf8');
    expect(committed === generated ? 'current' : 'stale: run npm run openapi').toBe('current');
  });

  it('is OpenAPI 3 with version 0.1.0, the three security schemes (secret key first) and the error object', () => {
    const document = JSON.parse(readFileSync(OPENAPI_PATH, 'utf8'));
    expect(document.openapi).toMatch(/^3\./);
    expect(document.info.version).toBe('0.1.0');
    expect(document.servers).toEqual([{ url: 'http://localhost:3000' }]);
    expect(Object.keys(document.components.securitySchemes)).toEqual(['secret_key', 'publishable_key', 'dashboard_jwt']);
    expect(document.components.securitySchemes.secret_key).not.toHaveProperty('bearerFormat');
    expect(document.components.securitySchemes.publishable_key).not.toHaveProperty('bearerFormat');
    expect(document.components.securitySchemes.dashboard_jwt.bearerFormat).toBe('JWT');
    expect(document.components.schemas.ErrorObject.required).toEqual(['code', 'message', 'remediation', 'request_id']);
    expect(document.components.schemas.ErrorObject.properties).not.toHaveProperty('doc_url');
  });

  it('gives every operation a unique operationId and documents X-Request-Id on every response', () => {
    const document = JSON.parse(readFileSync(OPENAPI_PATH, 'utf8'));
    const ids: string[] = [];
    for (const [path, operations] of Object.entries<
      Record<string, { operationId: string; responses: Record<string, { headers?: object }> }>
    >(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        ids.push(operation.operationId);
        for (const [status, response] of Object.entries(operation.responses)) {
          expect({ route: `${method} ${path} ${status}`, header: Boolean(response.headers && 'X-Request-Id' in response.headers) }).toEqual(
            {
              route: `${method} ${path} ${status}`,
              header: true,
            },
          );
        }
      }
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('serves Swagger UI at /docs and the document at /openapi.json and /openapi.yaml, naming the host asked and PUBLIC_BASE_URL', async () => {
    const ui = await t.api.get('/docs').redirects(1).expect(200);
    expect(ui.headers['content-type']).toContain('text/html');
    const json = await t.api.get('/openapi.json').set('Host', 'api.acme.test').expect(200);
    expect(json.body.info.version).toBe('0.1.0');
    expect(json.body.servers).toEqual([{ url: 'http://api.acme.test' }, { url: t.config.publicBaseUrl }]);
    const yaml = await t.api.get('/openapi.yaml').expect(200);
    expect(yaml.text).toContain(`url: ${t.config.publicBaseUrl}`);
    const init = await t.api.get('/docs/swagger-ui-init.js').expect(200);
    expect(init.text).toMatch(/"persistAuthorization":\s*true/);
  });
});

describe('route inventory', () => {
  it('declares @Auth on every route', () => {
    const discovery = t.app.get(DiscoveryService);
    const scanner = t.app.get(MetadataScanner);
    const missing: string[] = [];
    let routes = 0;
    for (const wrapper of discovery.getControllers()) {
      const instance = wrapper.instance as Record<string, unknown>;
      for (const name of scanner.getAllMethodNames(Object.getPrototypeOf(instance))) {
        const handler = instance[name] as object;
        if (Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
        routes += 1;
        if (!Reflect.getMetadata(ROUTE_POLICY, handler)) {
          const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number];
          missing.push(`${wrapper.name}.${name} (${method})`);
        }
      }
    }
    expect(routes).toBeGreaterThan(5);
    expect(missing).toEqual([]);
  });
});
