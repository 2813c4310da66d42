import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Response } from 'supertest';

type Json = Record<string, unknown>;

// Test-only routes, the documentation itself and the browser scripts' source maps (for developer
// tools, not integrators) are not part of the document.
const UNDOCUMENTED = [/^\/v1\/_probe(\/|$)/, /^\/docs(\/|$|-)/, /^\/openapi\.(json|yaml)$/, /^\/v1\/[a-z]+(\.[^/.]+)?\.js\.map$/];

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * The committed document with every object schema closed (no properties beyond those documented),
 * so a response field the document does not know fails the e2e suite.
 */
function closedDocument(document: Json): Json {
  const copy = JSON.parse(JSON.stringify(document)) as Json;
  const schemas = ((copy.components as Json | undefined)?.schemas ?? {}) as Record<string, Json>;
  for (const schema of Object.values(schemas)) {
    if (schema.type === 'object' && schema.properties && schema.additionalProperties === undefined) schema.additionalProperties = false;
  }
  return copy;
}

/** Checks every e2e response against openapi/openapi.json: documented route, status and body. */
export class OpenApiValidator {
  private static shared: OpenApiValidator | null = null;
  private readonly ajv: Ajv;
  private readonly document: Json;
  private readonly routes: { template: string; pattern: RegExp }[];
  private readonly compiled = new Map<string, ValidateFunction>();

  static instance(): OpenApiValidator {
    OpenApiValidator.shared ??= new OpenApiValidator(
      JSON.parse(readFileSync(join(__dirname, '../../openapi/openapi.json'), 'utf8')) as Json,
    );
    return OpenApiValidator.shared;
  }

  constructor(document: Json) {
    this.document = closedDocument(document);
    this.ajv = new Ajv({ strict: false, validateSchema: false, allErrors: true });
    addFormats(this.ajv);
    this.ajv.addSchema(this.document, 'openapi');
    this.routes = Object.keys(this.document.paths as Json).map((template) => ({
      template,
      pattern: new RegExp(`^${template.replace(/[.+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
    }));
  }

  check(method: string, url: string, res: Response): void {
    const path = new URL(url, 'http://local').pathname;
    if (UNDOCUMENTED.some((pattern) => pattern.test(path))) return;
    const route = this.routes.find((candidate) => candidate.pattern.test(path));
    if (!route) {
      if (res.status === 404 && res.body?.error?.code === 'NOT_FOUND') return; // unknown routes answer NOT_FOUND
      throw new Error(`${method} ${path} is not in openapi.json`);
    }
    // HEAD is answered by the GET route, with the same status and headers and no body.
    const documented = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase();
    const operation = ((this.document.paths as Json)[route.template] as Json)[documented] as Json | undefined;
    if (!operation) {
      if (res.status === 404) return;
      throw new Error(`${method} ${route.template} is not in openapi.json`);
    }
    const responses = operation.responses as Json;
    const status = String(res.status);
    if (!responses[status]) throw new Error(`${method} ${route.template} answered ${status}, which openapi.json does not document`);
    if (!(res.headers['content-type'] ?? '').includes('application/json') || documented !== method.toLowerCase()) return;
    const validate = this.validator(route.template, documented, status);
    if (validate && !validate(res.body)) {
      throw new Error(
        `${method} ${route.template} ${status} body does not match openapi.json: ${this.ajv.errorsText(validate.errors)}\n${JSON.stringify(res.body).slice(0, 2000)}`,
      );
    }
  }

  private validator(template: string, method: string, status: string): ValidateFunction | null {
    const key = `${method} ${template} ${status}`;
    if (!this.compiled.has(key)) {
      const content = ((((this.document.paths as Json)[template] as Json)[method] as Json).responses as Json)[status] as Json;
      if (!(content.content as Json | undefined)?.['application/json']) return null;
      const pointer = ['paths', template, method, 'responses', status, 'content', 'application/json', 'schema']
        .map(escapePointer)
        .join('/');
      this.compiled.set(key, this.ajv.compile({ $ref: `openapi#/${pointer}` }));
    }
    return this.compiled.get(key) ?? null;
  }
}
