import { STATUS_CODES } from 'node:http';
import type { OpenAPIObject } from '@nestjs/swagger';
import { ERRORS, type ErrorCode } from '../common/errors/error-catalog';
import { ROUTE_POLICY_EXTENSION, type RoutePolicy } from '../common/http/route-policy';
import { PLATFORM_LIMITS } from '../projects/plans';
import { TAGS } from './tags';

/**
 * Generation-time passes over the document @nestjs/swagger builds: they fix what its decorators
 * cannot express (tag order, `security: []`, schema names, closed request bodies, shared headers,
 * operation descriptions), so no DTO or controller has to repeat it.
 */

type Node = Record<string, unknown>;
interface Operation {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string }[];
  requestBody?: { content?: Record<string, { schema?: Node; example?: unknown; examples?: Record<string, unknown> }> };
  responses: Record<string, Response>;
  [extension: `x-${string}`]: unknown;
}
interface Response {
  description: string;
  headers?: Record<string, unknown>;
  content?: Record<string, { schema?: Node; example?: unknown; examples?: Record<string, unknown> }>;
}

export function operationsOf(document: OpenAPIObject): Operation[] {
  return Object.values(document.paths).flatMap((path) => Object.values(path as Record<string, Operation>));
}

const SCHEMA_PREFIX = '#/components/schemas/';

/** The codes an error response documents: the enum that `ApiErrors` narrows `error.code` to. */
export function errorCodesOf(schema: Node | undefined): ErrorCode[] | null {
  const error = (schema?.properties as Record<string, Node> | undefined)?.error;
  for (const part of (error?.allOf ?? []) as Node[]) {
    const codes = ((part.properties as Record<string, Node> | undefined)?.code as Node | undefined)?.enum;
    if (Array.isArray(codes)) return codes as ErrorCode[];
  }
  return null;
}

/**
 * The failure envelope is JSON on every route, pages and feeds included (the exception filter writes
 * nothing else), but @nestjs/swagger files it under a route's @ApiProduces type; move it back.
 */
export function errorsAsJson(document: OpenAPIObject): void {
  for (const operation of operationsOf(document)) {
    for (const response of Object.values(operation.responses)) {
      const content = response.content ?? {};
      const envelope = Object.entries(content).find(([, media]) => errorCodesOf(media.schema));
      if (envelope && envelope[0] !== 'application/json') response.content = { 'application/json': envelope[1] };
    }
  }
}

// What the kernel may answer to any request with a body before its handler runs (json-body.ts,
// body-media-type.guard.ts): too large, or in a form no parser reads.
const BODY_REFUSALS: readonly ErrorCode[] = ['PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'];

/**
 * The body refusals on every operation that takes a body, in the shape `ApiErrors` gives a status:
 * added to a status the handler already documents, or as a response of its own. Run after
 * renameSchemas (the error object's schema is `ErrorObject` by then).
 */
export function documentBodyRefusals(document: OpenAPIObject): void {
  for (const operation of operationsOf(document)) {
    if (!operation.requestBody) continue;
    for (const code of BODY_REFUSALS) {
      const status = String(ERRORS[code].status);
      const media = operation.responses[status]?.content?.['application/json'];
      const documented = errorCodesOf(media?.schema) ?? [];
      if (documented.includes(code)) continue;
      const codes = [...documented, code].sort();
      operation.responses[status] = {
        ...operation.responses[status],
        description: `${STATUS_CODES[Number(status)] ?? 'Error'}: ${codes.join(', ')}`,
        content: { 'application/json': { ...media, schema: errorEnvelopeSchema(codes) } },
      };
    }
  }
}

function errorEnvelopeSchema(codes: ErrorCode[]): Node {
  return {
    type: 'object',
    required: ['data', 'error'],
    properties: {
      data: { type: 'object', nullable: true, enum: [null], description: 'Always null on failure.' },
      error: { allOf: [{ $ref: `${SCHEMA_PREFIX}ErrorObject` }, { type: 'object', properties: { code: { enum: codes } } }] },
    },
  };
}

/** Schema names without the `Dto` suffix of our classes (`SignupDto` → `Signup`), with every `$ref` following. */
export function renameSchemas(document: OpenAPIObject): OpenAPIObject {
  const schemas = document.components?.schemas ?? {};
  const renamed = new Map<string, string>();
  for (const name of Object.keys(schemas)) {
    const target = name.replace(/Dto$/, '');
    if (target !== name && (target in schemas || [...renamed.values()].includes(target))) {
      throw new Error(`OpenAPI: renaming schema ${name} to ${target} would collide with another schema`);
    }
    renamed.set(name, target);
  }
  const text = JSON.stringify(document).replace(/"#\/components\/schemas\/([A-Za-z0-9_]+)"/g, (whole, name: string) =>
    renamed.has(name) ? `"${SCHEMA_PREFIX}${renamed.get(name)}"` : whole,
  );
  const result = JSON.parse(text) as OpenAPIObject;
  result.components!.schemas = Object.fromEntries(Object.entries(result.components!.schemas!).map(([name, s]) => [renamed.get(name), s]));
  return result;
}

/** The schemas request bodies name, and the DTOs nested in them (following every `$ref`). */
export function requestSchemaNames(document: OpenAPIObject): Set<string> {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Node>;
  const seen = new Set<string>();
  const visit = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach(visit);
    const ref = (node as Node).$ref;
    if (typeof ref === 'string' && ref.startsWith(SCHEMA_PREFIX)) {
      const name = ref.slice(SCHEMA_PREFIX.length);
      if (seen.has(name)) return;
      seen.add(name);
      return visit(schemas[name]);
    }
    for (const value of Object.values(node)) visit(value);
  };
  for (const operation of operationsOf(document)) {
    for (const media of Object.values(operation.requestBody?.content ?? {})) visit(media.schema);
  }
  return seen;
}

/**
 * The server refuses unknown body fields (the global ValidationPipe has forbidNonWhitelisted; the
 * hosted signup form validates the same way), so every schema a request body names, and the DTOs
 * nested in it, is closed. Free-form properties (inline `type: object`) stay open: they are not DTOs.
 */
export function closeRequestSchemas(document: OpenAPIObject): void {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Node>;
  for (const name of requestSchemaNames(document)) {
    const schema = schemas[name];
    if (schema.type === 'object' && schema.additionalProperties === undefined) schema.additionalProperties = false;
  }
}

// Keywords whose values are data, not schemas, whatever keys they hold.
const DATA_KEYWORDS = new Set(['example', 'examples', 'enum', 'default']);

/**
 * A request field the server fills in when it is left out is optional to send, and a generated
 * client must let you leave it out. OpenAPI's `default` says what the server fills in, but the
 * most used TypeScript generator (openapi-typescript, `defaultNonNullable` on unless told
 * otherwise) types every component-schema property with a `default` as always present: right for
 * answers, wrong for requests, where `audience` would become compulsory on every create. So in the
 * schemas request bodies name, each default is said in the property's description instead
 * ("Default: `public`."). Answers keep their `default`s.
 */
export function requestDefaultsInWords(document: OpenAPIObject): void {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Node>;
  const visit = (node: unknown, propertyMap = false): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach((item) => visit(item));
    const schema = node as Node;
    if (propertyMap) return Object.values(schema).forEach((property) => visit(property));
    if ('default' in schema) {
      const value = typeof schema.default === 'string' ? schema.default : JSON.stringify(schema.default);
      const said = `Default: \`${value}\`.`;
      schema.description = typeof schema.description === 'string' && schema.description ? `${schema.description} ${said}` : said;
      delete schema.default;
    }
    for (const [key, value] of Object.entries(schema)) {
      if (!DATA_KEYWORDS.has(key)) visit(value, key === 'properties');
    }
  };
  for (const name of requestSchemaNames(document)) visit(schemas[name]);
}

const HEADERS = {
  requestId: 'X-Request-Id',
  retryAfter: 'Retry-After',
  rateLimitLimit: 'X-RateLimit-Limit',
  rateLimitRemaining: 'X-RateLimit-Remaining',
} as const;

const HEADER_DOCS: Record<string, object> = {
  [HEADERS.requestId]: {
    description: 'The id of this request; quote it to support. The failure envelope repeats it as `error.request_id`.',
    required: true,
    schema: { type: 'string', example: 'req_01JD3Z4Q9X8V7T6S5R4Q3P2N1M' },
  },
  [HEADERS.retryAfter]: {
    description: 'Seconds to wait before retrying.',
    schema: { type: 'integer', minimum: 1, example: 30 },
  },
  [HEADERS.rateLimitLimit]: {
    description:
      'Requests allowed in the current window. Sent by the per-IP browser limit (calls without a secret key) and with a 429 from a per-window limit.',
    schema: { type: 'integer', example: PLATFORM_LIMITS.browserCallsPerMinutePerIp },
  },
  [HEADERS.rateLimitRemaining]: {
    description: 'Requests left in the current window; 0 on a 429.',
    schema: { type: 'integer', minimum: 0, example: 119 },
  },
};

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

/**
 * The headers the server really sends, by response: X-Request-Id on every one; Retry-After on 429
 * and 503, and on 409 where a retry of a running idempotent request can be refused; the
 * X-RateLimit-* pair on 429 and on every answer of a browser route (the guard sets them before the
 * handler runs).
 */
export function documentResponseHeaders(document: OpenAPIObject): void {
  document.components = { ...document.components, headers: HEADER_DOCS };
  for (const operation of operationsOf(document)) {
    const policy = operation[ROUTE_POLICY_EXTENSION] as RoutePolicy | undefined;
    const browserLimited = policy?.browser === true;
    for (const [status, response] of Object.entries(operation.responses)) {
      const names: string[] = [HEADERS.requestId];
      // Refused before the guard's per-IP limit runs (authentication, body size, headers): no X-RateLimit-*.
      const beforeLimit = ['401', '413', '415', '431'].includes(status);
      const codes = JSON.stringify(response.content ?? {});
      if (status === '429' || status === '503' || (status === '409' && codes.includes('IDEMPOTENCY_CONFLICT'))) {
        names.push(HEADERS.retryAfter);
      }
      if (status === '429' || (browserLimited && !beforeLimit)) names.push(HEADERS.rateLimitLimit, HEADERS.rateLimitRemaining);
      response.headers = { ...response.headers, ...Object.fromEntries(names.map((name) => [name, headerRef(name)])) };
    }
  }
}

const CALLERS: Record<RoutePolicy['mode'], string> = {
  secret: 'Server-side: send a secret key (`Authorization: Bearer svc_live_…`). A publishable key gets 403 KEY_INSUFFICIENT_PERMISSIONS.',
  publishable:
    'Browser or server: send the publishable key (`svc_pub_live_…`) from a browser, or a secret key from a server. CORS is open to any origin.',
  none: 'Public: no key.',
  dashboard:
    "Dashboard: send the signed-in user's token (`Authorization: Bearer <JWT>`) and the project's id in the `X-Service-Project` header.",
  dashboard_account: "Dashboard: send the signed-in user's token (`Authorization: Bearer <JWT>`); no project is needed.",
  signed_in: "Dashboard: send the signed-in user's token (`Authorization: Bearer <JWT>`); the account need not exist yet.",
};

/** What every caller needs to know beyond the summary, in words, from the route's policy and headers. */
function describe(operation: Operation): string {
  const policy = operation[ROUTE_POLICY_EXTENSION] as RoutePolicy | undefined;
  const lines: string[] = [];
  if (operation.description) lines.push(operation.description, '');
  if (policy) lines.push(CALLERS[policy.mode]);
  if (policy?.endUser) {
    const hash =
      policy.endUser.userHash === 'unless_legacy'
        ? 'a browser call also sends `user_hash`, unless the project has `require_user_hash` off'
        : 'a browser call also sends `user_hash`';
    const anonymous = policy.endUser.optional ? ' Without `user_id` the call is anonymous.' : '';
    lines.push(`Acts for the end user named by \`user_id\`; ${hash}.${anonymous}`);
  }
  if (policy?.browser) {
    lines.push(
      `Calls without a secret key count against a per-IP limit (${PLATFORM_LIMITS.browserCallsPerMinutePerIp} a minute unless the operator sets BROWSER_RATE_LIMIT); X-RateLimit-Limit and X-RateLimit-Remaining say where you stand.`,
    );
  }
  if (operation.parameters?.some((parameter) => parameter.in === 'header' && parameter.name === 'Idempotency-Key')) {
    lines.push('Send an `Idempotency-Key` to make a retry safe: the first answer is replayed.');
  }
  return lines.join('\n').trim();
}

/**
 * Every operation gets a description and an explicit `security` (`[]` for public routes, so a
 * document-level default can never apply to them); the policy extension is then removed.
 */
export function describeOperations(document: OpenAPIObject): void {
  for (const operation of operationsOf(document)) {
    operation.description = describe(operation);
    operation.security ??= [];
    delete operation[ROUTE_POLICY_EXTENSION];
  }
}

/**
 * The top-level tags in the order of src/openapi/tags.ts. A tag used but not listed there comes last
 * without a description (a test fails on it), rather than stopping the server from starting.
 */
export function orderTags(document: OpenAPIObject): void {
  const used = new Set(operationsOf(document).flatMap((operation) => operation.tags ?? []));
  const unlisted = [...used].filter((tag) => !TAGS.some((known) => known.name === tag)).sort();
  document.tags = [...TAGS.filter((tag) => used.has(tag.name)).map((tag) => ({ ...tag })), ...unlisted.map((name) => ({ name }))];
}

/** The error catalog, in the document: every code with its status and remediation, on `ErrorObject.code`. */
export function describeErrorCodes(document: OpenAPIObject): void {
  const code = ((document.components?.schemas?.ErrorObject as Node | undefined)?.properties as Record<string, Node> | undefined)?.code;
  if (!code) throw new Error('OpenAPI: the ErrorObject schema has no code property');
  const rows = Object.entries(ERRORS).map(([name, spec]) => `| \`${name}\` | ${spec.status} | ${spec.remediation.replace(/\|/g, '\\|')} |`);
  code.description = ['What went wrong, stable across releases:', '', '| Code | HTTP | What to do |', '|---|---|---|', ...rows].join('\n');
}
