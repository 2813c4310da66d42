import type { OpenAPIObject } from '@nestjs/swagger';
import { ERRORS } from '../common/errors/error-catalog';
import { errorCodesOf, operationsOf } from './document-shape';
import { errorExample } from './error-examples';
import { REQUEST_EXAMPLES } from './request-examples';

/**
 * Examples on every request and response body, so Swagger UI and generated clients show real values
 * instead of placeholders built from types ("string", `additionalProp1`). Bodies are assembled from
 * the `example` of each DTO property; a property without one gets a value from its enum, format or
 * nullability; a free-text or numeric property with none of those gets null and is reported (add an
 * `example` to the DTO): `npm run openapi` and the OpenAPI test fail on it, a starting server does not.
 * Failure responses get one example per error code the route can answer, named by the code.
 */

type Node = Record<string, unknown>;

const SCHEMA_PREFIX = '#/components/schemas/';
const EXAMPLE_TIME = '2026-03-02T09:30:00.000Z';
const MAX_DEPTH = 12;

class Sampler {
  /** Free-text properties without an example, reported together. */
  readonly missing = new Set<string>();

  constructor(private readonly schemas: Record<string, Node>) {}

  sample(schema: Node, where: string, depth = 0): unknown {
    if (depth > MAX_DEPTH) throw new Error(`OpenAPI example: ${where} nests too deep`);
    if (typeof schema.$ref === 'string') {
      const name = schema.$ref.slice(SCHEMA_PREFIX.length);
      return this.sample(this.schemas[name], name, depth + 1);
    }
    if (schema.example !== undefined) return schema.example;
    if (Array.isArray(schema.allOf)) {
      return Object.assign({}, ...schema.allOf.map((part: Node) => this.sample(part, where, depth + 1)));
    }
    const alternatives = (schema.anyOf ?? schema.oneOf) as Node[] | undefined;
    if (alternatives) {
      // `ApiNullableRef`: the model or null; the model is the informative example.
      const informative = alternatives.find((alternative) => !(Array.isArray(alternative.enum) && alternative.enum[0] === null));
      return this.sample(informative ?? alternatives[0], where, depth + 1);
    }
    if (Array.isArray(schema.enum)) return schema.enum[0];
    switch (schema.type) {
      case 'object':
        return this.sampleObject(schema, where, depth);
      case 'array':
        return [this.sample(schema.items as Node, `${where}[]`, depth + 1)];
      case 'boolean':
        return false;
      case 'integer':
      case 'number':
        if (typeof schema.minimum === 'number') return schema.minimum;
        this.missing.add(where);
        return null;
      default:
        return this.sampleString(schema, where);
    }
  }

  private sampleObject(schema: Node, where: string, depth: number): unknown {
    const properties = schema.properties as Record<string, Node> | undefined;
    if (!properties) return {}; // a free-form object: `{}` is a truthful value, a made-up key is not
    return Object.fromEntries(
      Object.entries(properties).map(([name, property]) => [name, this.sample(property, `${where}.${name}`, depth + 1)]),
    );
  }

  private sampleString(schema: Node, where: string): unknown {
    if (schema.nullable) return null;
    if (schema.format === 'date-time') return EXAMPLE_TIME;
    if (schema.format === 'date') return EXAMPLE_TIME.slice(0, 10);
    if (schema.format === 'email') return 'ada@example.com';
    if (schema.format === 'uri') return 'https://example.com/';
    this.missing.add(where);
    return null;
  }
}

const isJson = (mediaType: string) => mediaType === 'application/json';

// Pages and feeds: the start of what the server writes, so the media type's shape is visible.
const DOCUMENT_EXAMPLES: Record<string, string> = {
  'text/html':
    '<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8"><title>Acme changelog</title></head>\n<body>…</body>\n</html>\n',
  'application/atom+xml':
    '<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">\n  <title>Acme changelog</title>\n  …\n</feed>\n',
  'application/rss+xml':
    '<?xml version="1.0" encoding="utf-8"?>\n<rss version="2.0">\n  <channel>\n    <title>Acme changelog</title>\n    …\n  </channel>\n</rss>\n',
  'application/feed+json': '{"version":"https://jsonfeed.org/version/1.1","title":"Acme changelog","items":[…]}',
  'text/javascript': '"use strict";(()=>{…})();\n//# sourceMappingURL=notifications.js.map\n',
};

/** Adds the examples; answers the properties that had none to give (empty when all is well). */
export function addExamples(document: OpenAPIObject): string[] {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Node>;
  const sampler = new Sampler(schemas);
  const examples: Record<string, object> = {};
  const unused = new Set(Object.keys(REQUEST_EXAMPLES));
  for (const operation of operationsOf(document)) {
    for (const [mediaType, media] of Object.entries(operation.requestBody?.content ?? {})) {
      const written = isJson(mediaType) ? REQUEST_EXAMPLES[operation.operationId] : undefined;
      if (written) {
        unused.delete(operation.operationId);
        media.examples = structuredClone(written);
      } else if (media.schema && media.example === undefined && (isJson(mediaType) || mediaType.endsWith('x-www-form-urlencoded'))) {
        media.example = sampler.sample(media.schema, `${operation.operationId} request`);
      }
    }
    for (const [status, response] of Object.entries(operation.responses)) {
      for (const [mediaType, media] of Object.entries(response.content ?? {})) {
        if (media.example !== undefined || media.examples) continue;
        if (!isJson(mediaType) && DOCUMENT_EXAMPLES[mediaType] !== undefined) media.example = DOCUMENT_EXAMPLES[mediaType];
        if (!media.schema || !isJson(mediaType)) continue;
        const codes = errorCodesOf(media.schema);
        if (codes) {
          media.examples = Object.fromEntries(codes.map((code) => [code, { $ref: `#/components/examples/${code}` }]));
          for (const code of codes) examples[code] = errorExample(code);
          if (codes.some((code) => String(ERRORS[code].status) !== status)) {
            throw new Error(`OpenAPI: ${operation.operationId} documents ${codes.join(', ')} under ${status}`);
          }
        } else {
          media.example = sampler.sample(media.schema, `${operation.operationId} ${status}`);
        }
      }
    }
  }
  if (unused.size) throw new Error(`OpenAPI: request examples for unknown operations: ${[...unused].join(', ')}`);
  document.components = { ...document.components, examples };
  return [...sampler.missing].sort();
}

/**
 * Named request examples in the order they are written, not sorted (run after sortDocument): the
 * first is the one Swagger UI shows and "Try it out" sends.
 */
export function orderRequestExamples(document: OpenAPIObject): void {
  for (const operation of operationsOf(document)) {
    const written = REQUEST_EXAMPLES[operation.operationId];
    const media = operation.requestBody?.content?.['application/json'];
    if (!written || !media?.examples) continue;
    const examples = media.examples;
    media.examples = Object.fromEntries(Object.keys(written).map((name) => [name, examples[name]]));
  }
}
