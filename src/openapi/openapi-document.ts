import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { requestOrigin } from '../common/http/request-origin';
import { SECURITY_SCHEMES } from '../common/http/route-policy';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { addExamples, orderRequestExamples } from './document-examples';
import {
  closeRequestSchemas,
  describeErrorCodes,
  describeOperations,
  documentBodyRefusals,
  errorsAsJson,
  documentResponseHeaders,
  orderTags,
  renameSchemas,
  requestDefaultsInWords,
} from './document-shape';

export const API_VERSION = '0.1.0';
/** The document's title, and the title of the /docs page. */
const API_REFERENCE_TITLE = 'Launch Service API';

const DESCRIPTION = [
  'One API for a product launch: changelog, waitlist, feedback, in-app notifications, webhooks and contacts.',
  '',
  'Every answer is an envelope: `{data, error: null, meta?}` on success, `{data: null, error: {code, message, remediation, param?, request_id}}` on failure.',
  'Every response carries `X-Request-Id`. Creates accept `Idempotency-Key`.',
  '',
  'Each error response lists the codes it can carry, with an example per code. The `ErrorObject` schema lists every code with its status and what to do about it.',
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

/**
 * The server the document names: PUBLIC_BASE_URL of the running server; the committed file uses
 * the default, so it does not change with the machine that generated it.
 */
export const COMMITTED_SERVER_URL = 'http://localhost:3000';

interface BuildOptions {
  /** Overrides the configured PUBLIC_BASE_URL (the committed document uses COMMITTED_SERVER_URL). */
  serverUrl?: string;
  /** Fail on a body property without an example (generation and its test; a starting server only documents). */
  strict?: boolean;
}

function configuredServerUrl(app: INestApplication): string {
  const config = app.get<AppConfig | undefined>(APP_CONFIG, { strict: false });
  return config?.publicBaseUrl ?? COMMITTED_SERVER_URL;
}

// Key schemes are opaque tokens, so no bearerFormat; only the dashboard's is a JWT. Their order is
// the order of Swagger UI's Authorize dialog: the secret key first, as most calls are server-side.
const SECURITY_SCHEME_DOCS = {
  [SECURITY_SCHEMES.secretKey]: {
    type: 'http',
    scheme: 'bearer',
    description: 'Secret key, for your server: `svc_live_…`, `svc_test_…` or a legacy `sk_live_…`.',
  },
  [SECURITY_SCHEMES.publishableKey]: {
    type: 'http',
    scheme: 'bearer',
    description: 'Publishable key, for browser endpoints only: `svc_pub_live_…`.',
  },
  [SECURITY_SCHEMES.dashboardJwt]: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: "Dashboard: the signed-in user's RS256 JWT from the identity provider.",
  },
} as const;

export function buildOpenApiDocument(app: INestApplication, options: BuildOptions = {}): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle(API_REFERENCE_TITLE)
    .setDescription(DESCRIPTION)
    .setVersion(API_VERSION)
    .setLicense('Apache-2.0', 'https://www.apache.org/licenses/LICENSE-2.0')
    .addServer(options.serverUrl ?? configuredServerUrl(app));
  for (const [name, scheme] of Object.entries(SECURITY_SCHEME_DOCS)) builder.addSecurity(name, scheme);
  const generated = SwaggerModule.createDocument(app, builder.build(), { operationIdFactory: (_controller, method) => method });
  const document = renameSchemas(generated);
  errorsAsJson(document);
  documentBodyRefusals(document);
  documentResponseHeaders(document);
  describeOperations(document);
  closeRequestSchemas(document);
  requestDefaultsInWords(document);
  orderTags(document);
  describeErrorCodes(document);
  const missing = addExamples(document);
  if (options.strict && missing.length) throw new Error(`OpenAPI: add an example to the @ApiProperty of ${missing.join(', ')}`);
  const sorted = sortDocument(document) as OpenAPIObject;
  orderRequestExamples(sorted);
  sorted.components!.securitySchemes = Object.fromEntries(
    Object.entries(SECURITY_SCHEME_DOCS).map(([name, scheme]) => [name, sortDocument(scheme)]),
  ) as typeof SECURITY_SCHEME_DOCS;
  return sorted;
}

/**
 * The servers a served document names: the origin the request came to first (so "Try it out"
 * calls the host the page was opened on, whatever name or proxy led there), then the configured
 * PUBLIC_BASE_URL when it is another.
 */
function serversFor(req: Request, configured: string | undefined): { url: string }[] {
  const urls = [requestOrigin(req), configured].filter((url): url is string => Boolean(url));
  return [...new Set(urls)].map((url) => ({ url }));
}

/** Swagger UI at /docs, the document at /openapi.json and /openapi.yaml; authorisation survives a reload. */
export function serveOpenApi(app: INestApplication, document: OpenAPIObject): void {
  const configured = document.servers?.[0]?.url;
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'openapi.json',
    yamlDocumentUrl: 'openapi.yaml',
    customSiteTitle: API_REFERENCE_TITLE,
    swaggerOptions: { persistAuthorization: true },
    patchDocumentOnRequest: <TRequest, TResponse>(req: TRequest, res: TResponse, served: OpenAPIObject) => {
      (res as Response).vary('Host').vary('X-Forwarded-Host').vary('X-Forwarded-Proto');
      return { ...served, servers: serversFor(req as Request, configured) };
    },
  });
}
