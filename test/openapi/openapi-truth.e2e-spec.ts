import { readFileSync } from 'node:fs';
import { ERRORS, type ErrorCode } from '../../src/common/errors/error-catalog';
import { OPENAPI_PATH } from '../../src/openapi/openapi-file';
import { TAGS } from '../../src/openapi/tags';

// The committed document, read as data: what an integrator sees in /docs and in generated clients.
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const document: Json = JSON.parse(readFileSync(OPENAPI_PATH, 'utf8'));
const operations = Object.entries<Json>(document.paths).flatMap(([path, methods]) =>
  Object.entries<Json>(methods).map(([method, operation]) => ({ route: `${method.toUpperCase()} ${path}`, operation })),
);

function resolve(node: Json): Json {
  if (typeof node.$ref !== 'string') return node;
  const [, section, kind, name] = node.$ref.split('/');
  return document[section][kind][name];
}

/** Every example value in the document, with where it sits. */
function examples(): { where: string; value: unknown }[] {
  const found: { where: string; value: unknown }[] = [];
  const walk = (node: unknown, where: string): void => {
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      // `example`, and the value of each named example (`examples: {name: {summary, value}}`).
      if (key === 'example' || (key === 'value' && where.includes('/examples/'))) found.push({ where, value });
      else walk(value, `${where}/${key}`);
    }
  };
  walk(document, '#');
  return found;
}

describe('the committed OpenAPI document', () => {
  it('lists the tags with descriptions, the products first in reading order', () => {
    const names = document.tags.map((tag: Json) => tag.name);
    expect(names.slice(0, 8)).toEqual([
      'Project',
      'Waitlist',
      'Changelog',
      'Notifications',
      'Webhooks',
      'Feedback',
      'Contacts',
      'Dashboard',
    ]);
    expect(names).toEqual(TAGS.map((tag) => tag.name).filter((name) => names.includes(name)));
    expect(document.tags.filter((tag: Json) => !tag.description)).toEqual([]);
    const used = new Set(operations.flatMap(({ operation }) => operation.tags));
    expect([...used].filter((tag) => !names.includes(tag))).toEqual([]);
  });

  it('gives every operation a summary, a description and an explicit security list (empty when public)', () => {
    const lacking = operations.filter(
      ({ operation }) => !operation.summary || !operation.description || !Array.isArray(operation.security),
    );
    expect(lacking.map(({ route }) => route)).toEqual([]);
    expect(operations.find(({ route }) => route === 'GET /v1/_health')?.operation.security).toEqual([]);
    expect(operations.find(({ route }) => route === 'GET /v1/setup-check')?.operation.security).toEqual([{ secret_key: [] }]);
    expect(JSON.stringify(operations)).not.toContain('x-launch-');
  });

  it('names schemas without a Dto suffix, and every reference resolves', () => {
    expect(Object.keys(document.components.schemas).filter((name) => name.endsWith('Dto'))).toEqual([]);
    const refs = JSON.stringify(document).match(/"\$ref":"[^"]+"/g) ?? [];
    const broken = refs.map((ref) => ref.slice(8, -1)).filter((ref) => resolve({ $ref: ref }) === undefined);
    expect(broken).toEqual([]);
  });

  it('shows, for each error status, an example per code that status really carries', () => {
    const wrong: string[] = [];
    for (const { route, operation } of operations) {
      for (const [status, response] of Object.entries<Json>(operation.responses)) {
        if (Number(status) < 400) continue;
        const media = response.content?.['application/json'];
        if (!media) continue; // an HTML page of the hosted forms
        const codes = media.schema.properties.error.allOf[1].properties.code.enum as ErrorCode[];
        for (const code of codes) {
          const example = media.examples?.[code] && resolve(media.examples[code]);
          if (ERRORS[code].status !== Number(status)) wrong.push(`${route} ${status}: ${code} is a ${ERRORS[code].status}`);
          if (example?.value.error.code !== code) wrong.push(`${route} ${status}: no example for ${code}`);
          else if (!example.value.error.request_id || example.value.data !== null) wrong.push(`${route} ${status}: ${code} example`);
        }
      }
    }
    expect(wrong).toEqual([]);
    const unauthorized = operations.find(({ route }) => route === 'POST /v1/waitlist/signups')!.operation.responses['401'];
    expect(Object.keys(unauthorized.content['application/json'].examples).sort()).toEqual([
      'INVALID_API_KEY',
      'MISSING_AUTH',
      'REVOKED_API_KEY',
      'WRONG_AUTH_TYPE',
    ]);
  });

  it('shows success examples with "error": null on every JSON success response', () => {
    const lacking: string[] = [];
    for (const { route, operation } of operations) {
      for (const [status, response] of Object.entries<Json>(operation.responses)) {
        const media = response.content?.['application/json'];
        if (Number(status) >= 400 || !media) continue;
        if (!media.example || media.example.error !== null || !('data' in media.example)) lacking.push(`${route} ${status}`);
      }
    }
    expect(lacking).toEqual([]);
  });

  it('has no placeholder examples ("string", additionalProp1) and an example (or named examples) on every request body', () => {
    const placeholders = examples().filter(({ value }) => /"string"|additionalProp\d/.test(JSON.stringify(value) ?? ''));
    expect(placeholders).toEqual([]);
    const withoutExample = operations.filter(({ operation }) =>
      Object.values<Json>(operation.requestBody?.content ?? {}).some((media) => media.example === undefined && !media.examples),
    );
    expect(withoutExample.map(({ route }) => route)).toEqual([]);
  });

  it('closes every JSON request body schema, since unknown fields are refused', () => {
    const open: string[] = [];
    for (const { route, operation } of operations) {
      const schema = operation.requestBody?.content?.['application/json']?.schema;
      if (schema && resolve(schema).additionalProperties !== false) open.push(route);
    }
    expect(open).toEqual([]);
  });

  it('documents the rate-limit headers where they are sent', () => {
    const headersOf = (route: string, status: string) =>
      Object.keys(operations.find((candidate) => candidate.route === route)!.operation.responses[status].headers).sort();
    expect(headersOf('POST /v1/waitlist/signups', '429')).toEqual([
      'Retry-After',
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-Request-Id',
    ]);
    // A browser route: the per-IP limit answers with its counters.
    expect(headersOf('POST /v1/waitlist/signups', '201')).toEqual(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-Request-Id']);
    expect(headersOf('GET /v1/waitlist/signups', '200')).toEqual(['X-Request-Id']);
    expect(document.components.headers['X-Request-Id'].required).toBe(true);
  });
});
