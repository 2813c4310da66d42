import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SEALED_REPLAY_NOTE } from '../../src/idempotency/idempotent.decorator';

interface Schema {
  $ref?: string;
  description?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
}

interface Operation {
  parameters?: { name: string; description?: string }[];
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}

const DOCUMENT = JSON.parse(readFileSync(join(__dirname, '../../openapi/openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
};

/** How the DTOs describe a secret that an answer shows once ("shown this once", "Shown only in this answer"). */
const SHOWN_ONCE = /shown (this |only )?once|shown only in this answer/i;

/** The properties of an answer's schema, nested ones included, whose description says they are shown once. */
function shownOnce(schema: Schema | undefined, seen = new Set<Schema>()): string[] {
  const resolved = schema?.$ref ? DOCUMENT.components.schemas[schema.$ref.split('/').pop()!] : schema;
  if (!resolved || seen.has(resolved)) return [];
  seen.add(resolved);
  const nested = [
    ...(resolved.allOf ?? []),
    ...(resolved.oneOf ?? []),
    ...(resolved.anyOf ?? []),
    ...(resolved.items ? [resolved.items] : []),
  ];
  return [
    ...nested.flatMap((part) => shownOnce(part, seen)),
    ...Object.entries(resolved.properties ?? {}).flatMap(([name, property]) => [
      ...(SHOWN_ONCE.test(property.description ?? '') ? [name] : []),
      ...shownOnce(property, seen),
    ]),
  ];
}

/**
 * The copy of an answer kept for Idempotency-Key replays is sealed exactly when the answer shows a
 * secret once (`@Idempotent({ secretInAnswer: true })`): a new create route that returns a key or a
 * signing secret cannot leave it in plain text in idempotency_records for 24 hours.
 */
describe('replays of answers that show a secret', () => {
  const idempotent = Object.entries(DOCUMENT.paths).flatMap(([path, operations]) =>
    Object.entries(operations).flatMap(([method, operation]) => {
      const header = operation.parameters?.find((parameter) => parameter.name === 'Idempotency-Key');
      if (!header) return [];
      const answers = Object.entries(operation.responses).filter(([status]) => status.startsWith('2'));
      const secrets = answers.flatMap(([, answer]) => shownOnce(answer.content?.['application/json']?.schema));
      return [{ route: `${method.toUpperCase()} ${path}`, secrets, sealed: (header.description ?? '').includes(SEALED_REPLAY_NOTE) }];
    }),
  );

  it('finds the routes that show one', () => {
    expect(idempotent.filter((route) => route.secrets.length > 0).map((route) => route.route)).toEqual(
      expect.arrayContaining(['POST /v1/dashboard/keys', 'POST /v1/dashboard/projects', 'POST /v1/webhooks']),
    );
  });

  it('seals the stored answer of every route whose answer shows a secret, and of no other', () => {
    const wrong = idempotent.filter((route) => route.sealed !== route.secrets.length > 0);
    expect(wrong).toEqual([]);
  });
});
