import type { ValidationPipe } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error';
import { idKind, PathParamPipe } from '../common/http/path-param.pipe';
import { createValidationPipe } from '../common/validation/validation.pipe';
import { isValidIdempotencyKey } from '../idempotency/idempotency-key';
import type { ToolArgs, ToolDefinition } from './tool-kit';
import { dtoJsonSchema, type JsonSchema } from './tool-schemas';

const CONFIRM = 'confirm';
const IDEMPOTENCY_KEY = 'idempotency_key';

/** The REST pipe, built once: the same options, the same messages, the same `param` paths. */
let restPipe: ValidationPipe | null = null;
const pipe = (): ValidationPipe => (restPipe ??= createValidationPipe());

const invalid = (param: string, message: string) => new ApiError('VALIDATION_ERROR', message, { param });

/**
 * The tool's input schema: the REST DTO's fields (less `omit`), `id` first when the tool acts on
 * one resource, `confirm` on tools that preview first, `idempotency_key` on creates. Closed.
 */
export function inputSchemaOf(tool: ToolDefinition): JsonSchema {
  const { dto, omit = [], id, idempotent } = tool.input;
  const base = dto ? dtoJsonSchema(dto, { closed: true }) : { type: 'object', properties: {} };
  const properties: Record<string, unknown> = {};
  if (id) properties.id = { type: 'string', pattern: idKind(id.prefix).schema.pattern, description: id.description };
  for (const [name, schema] of Object.entries((base.properties ?? {}) as Record<string, unknown>)) {
    if (!omit.includes(name)) properties[name] = schema;
  }
  if (tool.preview) {
    properties[CONFIRM] = {
      type: 'boolean',
      description: 'Leave out (or false) to see what would happen without changing anything; true to do it.',
    };
  }
  if (idempotent) {
    properties[IDEMPOTENCY_KEY] = {
      type: 'string',
      minLength: 1,
      maxLength: 80,
      description: 'Any unique string: a retry with the same key and arguments answers the first result instead of acting twice.',
    };
  }
  const required = [...(id ? ['id'] : []), ...((base.required as string[] | undefined) ?? []).filter((name) => !omit.includes(name))];
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
}

/** Query strings carry text: numbers and booleans go through the query DTO's transforms as REST gets them. */
function asQueryValues(values: Record<string, unknown>): Record<string, unknown> {
  const text = (value: unknown) => (typeof value === 'number' || typeof value === 'boolean' ? String(value) : value);
  return Object.fromEntries(Object.entries(values).map(([key, value]) => [key, Array.isArray(value) ? value.map(text) : text(value)]));
}

/**
 * Checks a call's arguments exactly as REST checks the request: the id as the path pipe does, the
 * rest with the REST DTO through the REST ValidationPipe (unknown fields refused). Throws
 * VALIDATION_ERROR (or the route's not-found code for an id of the wrong kind) with `param`.
 */
export async function validateArgs(tool: ToolDefinition, args: unknown): Promise<{ args: ToolArgs; confirmed: boolean }> {
  if (args !== undefined && (args === null || typeof args !== 'object' || Array.isArray(args))) {
    throw invalid('arguments', 'The arguments must be a JSON object.');
  }
  const rest: Record<string, unknown> = { ...((args ?? {}) as Record<string, unknown>) };
  const { id: idSpec, dto, from = 'body', omit = [], idempotent, secretInAnswer = false } = tool.input;
  let id = '';
  if (idSpec) {
    if (rest.id === undefined) throw invalid('id', 'id is required.');
    id = new PathParamPipe('id', idKind(idSpec.prefix), { notFound: idSpec.notFound }).transform(rest.id);
    delete rest.id;
  }
  let confirmed = false;
  if (tool.preview && CONFIRM in rest) {
    if (typeof rest[CONFIRM] !== 'boolean') throw invalid(CONFIRM, 'confirm must be a boolean.');
    confirmed = rest[CONFIRM] === true;
    delete rest[CONFIRM];
  }
  let idempotencyKey: string | null = null;
  if (idempotent && IDEMPOTENCY_KEY in rest) {
    const key = rest[IDEMPOTENCY_KEY];
    if (typeof key !== 'string' || !isValidIdempotencyKey(key)) {
      throw invalid(IDEMPOTENCY_KEY, 'idempotency_key must be 1 to 80 printable ASCII characters.');
    }
    idempotencyKey = key;
    delete rest[IDEMPOTENCY_KEY];
  }
  const unknown = Object.keys(rest).find((name) => omit.includes(name) || (!dto && name !== undefined));
  if (unknown !== undefined) throw invalid(unknown, `Unknown field "${unknown}".`);
  const values = from === 'query' ? asQueryValues(rest) : rest;
  const input = dto ? ((await pipe().transform(values, { type: from, metatype: dto, data: '' })) as Record<string, unknown>) : {};
  const raw = { ...((args ?? {}) as Record<string, unknown>) };
  delete raw[CONFIRM];
  delete raw[IDEMPOTENCY_KEY];
  return { args: { id, input, idempotencyKey, secretInAnswer, raw }, confirmed };
}
