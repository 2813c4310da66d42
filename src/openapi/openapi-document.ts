import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { SECURITY_SCHEMES } from '../common/http/route-policy';

export const API_VERSION = '0.1.0';

const DESCRIPTION = [
  'One API for a product launch: changelog, waitlist, feedback, in-app notifications, webhooks and contacts.',
  '',
  'Every answer is an envelope: `{data, error: null, meta?}` on success, `{data: null, error: {code, message, remediation, param?, request_id}}` on failure.',
  'Every response carries `X-Request-Id`. Creates accept `Idempotency-Key`.',
].join('\n');

type Json = unknown;

/** Sorted keys everywhere, and sorted `required` lists and parameters: a stable, diffable file. */
export function sortDocument(value: Json, key?: string): Json {
  if (Array.isArray(value)) {
    const items = value.map((item) => sortDocument(item));
    if (key === 'required' && items.every((item) => typeof item === 'string')) return [...(items as string[])].sort();
    if (key === 'parameters') {
      return [...items].sort((a, b) => {
        const left = a as { in?: string; name?: string };
        const right = b as { in?: string; name?: string };
        return `${left.in}:${left.name}`.localeCompare(`${right.in}:${right.name}`);
      });
    }
    return items;
  }
  if (value && typeof value === 'object') {
    const sorted: Record<string, Json> = {};
    for (const name of Object.keys(value as object).sort()) sorted[name] = sortDocument((value as Record<string, Json>)[name], name);
    return sorted;
  }
  return value;
}

const REQUEST_ID_HEADER_DOC = { description: 'The id of this request (`req_…`); quote it to support.', schema: { type: 'string' } };
const RETRY_AFTER_HEADER_DOC = { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } };

/** Every response carries X-Request-Id; every 429 and 503 carries Retry-After. */
function documentResponseHeaders(document: OpenAPIObject): void {
  for (const path of Object.values(document.paths)) {
    for (const operation of Object.values(path) as { responses?: Record<string, { headers?: Record<string, unknown> }> }[]) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        response.headers = { ...response.headers, 'X-Request-Id': REQUEST_ID_HEADER_DOC };
        if (status === '429' || status === '503') response.headers['Retry-After'] = RETRY_AFTER_HEADER_DOC;
      }
    }
  }
}

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Launch Service API')
    .setDescription(DESCRIPTION)
    .setVersion(API_VERSION)
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', description: 'Secret key: svc_live_…, svc_test_… or legacy sk_live_…' },
      SECURITY_SCHEMES.secretKey,
    )
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', description: 'Publishable key: svc_pub_live_… (browser endpoints only)' },
      SECURITY_SCHEMES.publishableKey,
    )
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Dashboard: an RS256 JWT from the identity provider' },
      SECURITY_SCHEMES.dashboardJwt,
    )
    .build();
  const document = SwaggerModule.createDocument(app, builder, { operationIdFactory: (_controller, method) => method });
  documentResponseHeaders(document);
  return sortDocument(document) as OpenAPIObject;
}

/** Swagger UI at /docs and the document at /openapi.json. */
export function serveOpenApi(app: INestApplication, document: OpenAPIObject): void {
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'openapi.json', yamlDocumentUrl: 'openapi.yaml' });
}
