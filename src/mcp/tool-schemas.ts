import type { Type } from '@nestjs/common';
import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { dirname, join } from 'node:path';

/** A JSON Schema object (draft 2020-12, as MCP tool schemas are). */
export type JsonSchema = Record<string, unknown>;

type OpenApiNode = Record<string, unknown>;

const REF_PREFIX = '#/components/schemas/';

/**
 * The OpenAPI schemas of a DTO class and every class it refers to, built by @nestjs/swagger from
 * the same decorators the REST document is built from (so the REST request schema and a tool's
 * input schema cannot drift apart: both are read off the DTO).
 */
function exploreDto(dto: Type<unknown>): { name: string; schemas: Record<string, OpenApiNode> } {
  const schemas: Record<string, OpenApiNode> = {};
  const name = schemaFactory().exploreModelSchema(dto, schemas);
  return { name, schemas };
}

interface SchemaObjectFactory {
  exploreModelSchema(type: Type<unknown>, schemas: Record<string, OpenApiNode>): string;
}

let factory: SchemaObjectFactory | null = null;

/**
 * @nestjs/swagger's own schema builder, the one SwaggerModule.createDocument runs for every DTO.
 * The package exports only its entry point, so its service files are loaded by path.
 */
function schemaFactory(): SchemaObjectFactory {
  if (factory) return factory;
  const services = join(dirname(require.resolve('@nestjs/swagger')), 'services');
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { SchemaObjectFactory } = require(join(services, 'schema-object-factory')) as {
    SchemaObjectFactory: new (...args: unknown[]) => SchemaObjectFactory;
  };
  const { ModelPropertiesAccessor } = require(join(services, 'model-properties-accessor')) as {
    ModelPropertiesAccessor: new () => unknown;
  };
  const { SwaggerTypesMapper } = require(join(services, 'swagger-types-mapper')) as { SwaggerTypesMapper: new () => unknown };
  /* eslint-enable @typescript-eslint/no-require-imports */
  factory = new SchemaObjectFactory(new ModelPropertiesAccessor(), new SwaggerTypesMapper());
  return factory;
}

/**
 * OpenAPI 3.0 → JSON Schema: `$ref`s inlined (DTOs do not recurse), `nullable: true` becomes a
 * `null` alternative, and documentation-only keywords (`example`) are dropped.
 */
function toJsonSchema(node: unknown, schemas: Record<string, OpenApiNode>, closed: boolean, depth = 0): unknown {
  if (depth > 20) throw new Error('DTO schemas nest too deep to inline');
  if (Array.isArray(node)) return node.map((item) => toJsonSchema(item, schemas, closed, depth + 1));
  if (!node || typeof node !== 'object') return node;
  const source = node as OpenApiNode;
  if (typeof source.$ref === 'string') {
    const target = schemas[source.$ref.slice(REF_PREFIX.length)];
    if (!target) throw new Error(`unknown schema ${source.$ref}`);
    return toJsonSchema(target, schemas, closed, depth + 1);
  }
  const out: OpenApiNode = {};
  for (const [key, value] of Object.entries(source)) {
    if (key === 'example' || key === 'examples' || key === 'nullable') continue;
    if (key === 'properties' && value && typeof value === 'object') {
      out.properties = Object.fromEntries(
        Object.entries(value as OpenApiNode).map(([name, property]) => [name, toJsonSchema(property, schemas, closed, depth + 1)]),
      );
    } else out[key] = toJsonSchema(value, schemas, closed, depth + 1);
  }
  // Request DTOs are closed (the ValidationPipe refuses unknown fields), as the REST document says.
  if (closed && out.type === 'object' && out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  if (source.nullable === true) return nullable(out);
  return out;
}

function nullable(schema: OpenApiNode): OpenApiNode {
  if (typeof schema.type === 'string') {
    const withNull: OpenApiNode = { ...schema, type: [schema.type, 'null'] };
    if (Array.isArray(schema.enum) && !schema.enum.includes(null)) withNull.enum = [...(schema.enum as unknown[]), null];
    return withNull;
  }
  return { anyOf: [schema, { type: 'null' }] };
}

/** The JSON Schema of a request DTO (closed) or of a response DTO (open to fields added later). */
export function dtoJsonSchema(dto: Type<unknown>, options: { closed: boolean }): JsonSchema {
  const { name, schemas } = exploreDto(dto);
  return toJsonSchema({ $ref: `${REF_PREFIX}${name}` }, schemas, options.closed) as JsonSchema;
}

/**
 * A Standard Schema the SDK can advertise (`~standard.jsonSchema`) whose own check lets every
 * value through: the tool handler validates the arguments itself, with the REST DTO and the REST
 * ValidationPipe, so that a refusal is a tool result (`isError`, VALIDATION_ERROR with `param`)
 * rather than the SDK's JSON-RPC error, and says exactly what REST says.
 */
export function advertisedSchema(schema: JsonSchema): StandardSchemaWithJSON<Record<string, unknown>> {
  return {
    '~standard': {
      version: 1,
      vendor: 'launch-service',
      validate: (value: unknown) => ({ value: (value ?? {}) as Record<string, unknown> }),
      jsonSchema: { input: () => schema, output: () => schema },
    },
  };
}
