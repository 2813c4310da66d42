import type { OpenAPIObject } from '@nestjs/swagger';
import { getMetadataStorage } from 'class-validator';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { requestSchemaNames } from '../../src/openapi/document-shape';
import { OPENAPI_PATH } from '../../src/openapi/openapi-file';

/**
 * What a generated client reads from the committed document (openapi.e2e-spec.ts keeps it equal to
 * the code): which request fields it must send, and what each path parameter is called.
 */
type Schema = { required?: string[]; properties?: Record<string, Schema>; default?: unknown; [keyword: string]: unknown };

const document = JSON.parse(readFileSync(OPENAPI_PATH, 'utf8')) as OpenAPIObject;
const schemas = document.components!.schemas as Record<string, Schema>;
const SRC = join(__dirname, '..', '..', 'src');

/** Every class exported by a DTO file, by name (schema names are class names without `Dto`). */
function dtoClasses(): Map<string, abstract new (...args: never[]) => unknown> {
  const files = (readdirSync(SRC, { recursive: true }) as string[]).filter(
    (file) => /(^|\/)dto\/[^/]+\.ts$|\.dto\.ts$/.test(file) && !file.endsWith('.spec.ts'),
  );
  const classes = new Map<string, abstract new (...args: never[]) => unknown>();
  for (const file of files) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- every DTO file, by path, for its decorators' metadata
    for (const [name, value] of Object.entries(require(join(SRC, file)) as Record<string, unknown>)) {
      if (typeof value === 'function') classes.set(name, value as abstract new (...args: never[]) => unknown);
    }
  }
  return classes;
}

/** `path → keyword` of every `default` in a schema, nested ones included; example and enum values are data. */
function defaultsIn(schema: unknown, path: string): string[] {
  if (!schema || typeof schema !== 'object') return [];
  if (Array.isArray(schema)) return schema.flatMap((item, index) => defaultsIn(item, `${path}/${index}`));
  return Object.entries(schema).flatMap(([key, value]) => {
    if (key === 'default') return [`${path}/default`];
    if (key === 'example' || key === 'examples' || key === 'enum') return [];
    return defaultsIn(value, `${path}/${key}`);
  });
}

describe('request schemas', () => {
  const requestSchemas = [...requestSchemaNames(document)].sort();

  it('are found: the create inputs are among them', () => {
    expect(requestSchemas).toEqual(expect.arrayContaining(['CreateEntry', 'CreateNotification', 'CreateSignup', 'UpdateEntry']));
  });

  // openapi-typescript (defaultNonNullable) makes a property with a `default` compulsory; the
  // server fills these in, so the default is said in words (requestDefaultsInWords).
  it('carry no `default` a generator would turn into a compulsory field, and say each default in words', () => {
    expect(requestSchemas.flatMap((name) => defaultsIn(schemas[name], name))).toEqual([]);
    expect(schemas.CreateNotification.properties!.icon.description).toContain('Default: `info`.');
    expect(schemas.CreateEntry.properties!.audience.description).toContain('`public` on create');
  });

  it('never require a field whose default they state', () => {
    const required = requestSchemas.flatMap((name) =>
      Object.entries(schemas[name].properties ?? {})
        .filter(([property, schema]) => /Default: `/.test(String(schema.description)) && schemas[name].required?.includes(property))
        .map(([property]) => `${name}.${property}`),
    );
    expect(required).toEqual([]);
  });

  it('never require a property the validation lets the caller leave out (@IsOptional)', () => {
    const classes = dtoClasses();
    const unmatched: string[] = [];
    const wronglyRequired: string[] = [];
    let optionalSeen = 0;
    for (const name of requestSchemas) {
      const dto = classes.get(`${name}Dto`) ?? classes.get(name);
      if (!dto) {
        unmatched.push(name);
        continue;
      }
      const optional = getMetadataStorage()
        .getTargetValidationMetadatas(dto, '', true, false)
        .filter((rule) => rule.name === 'isOptional')
        .map((rule) => rule.propertyName);
      optionalSeen += optional.length;
      wronglyRequired.push(...optional.filter((property) => schemas[name].required?.includes(property)).map((p) => `${name}.${p}`));
    }
    expect({ unmatched, wronglyRequired }).toEqual({ unmatched: [], wronglyRequired: [] });
    expect(optionalSeen).toBeGreaterThan(50);
  });
});

describe('path parameters', () => {
  const paths = Object.keys(document.paths);

  // A `{name}` segment right after a literal one names an item of that collection: /v1/webhooks/{id},
  // /v1/dashboard/notifications/{id}. Every route through the collection uses the same name.
  it('use one name per collection across every route', () => {
    const names = new Map<string, Set<string>>();
    for (const path of paths) {
      const segments = path.split('/');
      segments.forEach((segment, index) => {
        const parameter = /^\{(\w+)\}$/.exec(segment)?.[1];
        const collection = segments[index - 1];
        if (!parameter || !collection || collection.includes('{')) return;
        names.set(collection, new Set([...(names.get(collection) ?? []), parameter]));
      });
    }
    const disagreeing = [...names]
      .filter(([, used]) => used.size > 1)
      .map(([collection, used]) => `${collection}: ${[...used].join(', ')}`);
    expect(disagreeing).toEqual([]);
    expect(names.get('notifications')).toEqual(new Set(['id']));
    expect(names.get('entries')).toEqual(new Set(['id']));
  });

  it('are the names the spec gives its routes', () => {
    // Paths as the spec writes them (its path and HTTP interface tables).
    const SPEC_PATHS = [
      '/v1/changelog/entries/{id}',
      '/v1/changelog/entries/{id}/stats',
      '/v1/changelog/entries/{id}/after-reading',
      '/v1/changelog/labels/{id}',
      '/v1/changelog/subscribers/{subscriber_id}/labels',
      '/v1/changelog/subscribers/by-token/{token}/labels',
      '/v1/changelog/widget/entries/{id}/reactions',
      '/v1/changelog/widget/entries/{id}/click',
      '/public/changelog/{project_slug}',
      '/v1/feedback/{feedback_id}',
      '/v1/notifications/{id}',
      '/v1/notifications/{id}/read',
      '/v1/notifications/{id}/click',
      '/v1/notifications/{id}/archive',
      '/v1/webhooks/{id}',
    ];
    expect(SPEC_PATHS.filter((path) => !paths.includes(path))).toEqual([]);
  });

  it('are declared on every operation under the name the path uses', () => {
    const mismatched: string[] = [];
    for (const [path, item] of Object.entries(document.paths)) {
      const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
      for (const [method, operation] of Object.entries(item as Record<string, { parameters?: { in: string; name: string }[] }>)) {
        const declared = (operation.parameters ?? []).filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name);
        if (JSON.stringify(declared.sort()) !== JSON.stringify(inPath)) mismatched.push(`${method} ${path}: ${declared.join(', ')}`);
      }
    }
    expect(mismatched).toEqual([]);
  });
});
