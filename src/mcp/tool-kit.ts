import type { Type } from '@nestjs/common';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { ApiError } from '../common/errors/api-error';
import type { IdPrefix } from '../common/ids/ids';
import type { ErrorCode } from '../common/errors/error-catalog';
import { Paged, WithMeta, WithStatus } from '../common/http/reply';
import type { Feature } from '../projects/plans';
import type { ProjectRef } from '../projects/project-ref';
import type { JsonSchema } from './tool-schemas';

/** The groups `?tools=` names; `setup_check` belongs to none and is always offered. */
export const TOOL_GROUPS = ['changelog', 'waitlist', 'feedback', 'notifications', 'contacts', 'webhooks'] as const;
export type ToolGroup = (typeof TOOL_GROUPS)[number] | 'setup';

/** Who calls: the project every tool is scoped to, and the scope of idempotency keys (the API key). */
export interface ToolCaller {
  readonly project: ProjectRef;
  /** The API key's id over HTTP (the REST scope of Idempotency-Key); a stdio scope of its own otherwise. */
  readonly idempotencyScope: string;
}

/** The four hints every tool declares, with values that say what it really does. */
export interface ToolHints {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** A read that touches only this service's data. */
export const READ: ToolHints = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** The validated arguments a tool's `run` and `preview` receive. */
export interface ToolArgs<I = Record<string, unknown>> {
  /** The resource id (`id`), already checked against its prefix. */
  id: string;
  /** The REST DTO instance (body or query), validated and transformed by the REST ValidationPipe. */
  input: I;
  idempotencyKey: string | null;
  /** The answer shows a secret, so the answer kept for `idempotency_key` is sealed (ToolInput.secretInAnswer). */
  secretInAnswer: boolean;
  /** The arguments as sent, less `confirm` (the idempotency fingerprint). */
  raw: Record<string, unknown>;
}

export interface ToolInput {
  /** The REST request DTO whose fields the tool takes flat (body or query). */
  dto?: Type<object>;
  /** Where REST reads the DTO from: the comparison test looks the schema up there. */
  from?: 'body' | 'query';
  /** DTO fields the tool does not take (each with its reason in the tool's description). */
  omit?: readonly string[];
  /** The resource id argument `id`: its prefix and the not-found code REST answers for it. */
  id?: { prefix: IdPrefix; notFound?: ErrorCode; description: string };
  /** Create tools take `idempotency_key`. */
  idempotent?: boolean;
  /**
   * The answer shows a secret (a signing secret, a key): the answer kept for `idempotency_key` is
   * sealed with ENCRYPTION_KEY, as the REST route's `@Idempotent({ secretInAnswer: true })` seals
   * its replay. The catalog test holds the two equal for every create tool.
   */
  secretInAnswer?: boolean;
}

export interface ToolDefinition {
  name: string;
  group: ToolGroup;
  title: string;
  description: string;
  annotations: ToolHints;
  input: ToolInput;
  /** The REST route this tool mirrors (the comparison test reads its request schema in openapi.json). */
  rest?: { method: 'get' | 'post' | 'patch' | 'delete'; path: string };
  /** JSON Schema of the answer's `structuredContent` (the REST `data`, or `{items, next_cursor}`). */
  output: JsonSchema;
  /** The plan feature the REST route requires (read off its @RequiresFeature, so the gates agree). */
  requires?: Feature;
  /** Nothing changes without `confirm: true`; without it, `preview` answers. */
  preview?: (caller: ToolCaller, args: ToolArgs) => Promise<Record<string, unknown>>;
  run: (caller: ToolCaller, args: ToolArgs) => Promise<unknown>;
}

/** The error shape of a failed call's `structuredContent`. */
const ERROR_OUTPUT: JsonSchema = {
  type: 'object',
  properties: {
    error: {
      type: 'object',
      properties: {
        code: { type: 'string' },
        message: { type: 'string' },
        param: { type: ['string', 'null'] },
        remediation: { type: 'string' },
      },
      required: ['code', 'message', 'param', 'remediation'],
    },
  },
  required: ['error'],
};

/** What a tool of item 7 answers without `confirm: true`. */
const PREVIEW_OUTPUT: JsonSchema = {
  type: 'object',
  properties: {
    requires_confirmation: { const: true },
    preview: { type: 'object', description: 'What the call would do; call again with confirm: true to do it.' },
  },
  required: ['requires_confirmation', 'preview'],
};

/** A page: REST `data` as `items`, the cursor to pass back as `cursor` (null on the last page or an unpaged list). */
export function listOutput(item: JsonSchema, extra: Record<string, JsonSchema> = {}): JsonSchema {
  return {
    type: 'object',
    properties: { items: { type: 'array', items: item }, next_cursor: { type: ['string', 'null'] }, ...extra },
    required: ['items', 'next_cursor', ...Object.keys(extra)],
  };
}

/**
 * The advertised output schema: the success shape, or the error shape (v1 clients check
 * `structuredContent` against it even on errors), or on confirm tools the preview shape.
 */
export function outputSchemaOf(tool: ToolDefinition): JsonSchema {
  const shapes = [tool.output, ERROR_OUTPUT, ...(tool.preview ? [PREVIEW_OUTPUT] : [])];
  return { type: 'object', anyOf: shapes };
}

/** The REST answer as a tool's structuredContent: `data`, or `{items, next_cursor, …meta}` for a page. */
export function structuredAnswer(result: unknown): Record<string, unknown> {
  if (result instanceof Paged) return { items: result.items, next_cursor: result.nextCursor, ...result.extraMeta };
  if (result instanceof WithMeta || result instanceof WithStatus) return structuredAnswer(result.data);
  if (Array.isArray(result)) return { items: result, next_cursor: null };
  return JSON.parse(JSON.stringify(result ?? {})) as Record<string, unknown>;
}

export function successResult(content: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(content) }], structuredContent: content };
}

/** A business failure as a tool result: the REST error object, and one line a model reads first. */
export function errorResult(error: ApiError): CallToolResult {
  // A tool result has no headers: a limit's Retry-After is said in the remediation instead.
  const retryAfter = error.headers['Retry-After'];
  const remediation = retryAfter ? `${error.remediation} Retry after ${retryAfter} seconds.` : error.remediation;
  const body = { code: error.code, message: error.message, param: error.param ?? null, remediation };
  return {
    isError: true,
    content: [{ type: 'text', text: `${error.code}: ${error.message} ${remediation}` }],
    structuredContent: { error: body },
  };
}

export function previewResult(preview: Record<string, unknown>): CallToolResult {
  const content = { requires_confirmation: true, preview };
  return {
    content: [{ type: 'text', text: `Nothing was changed. Call again with confirm: true to do this: ${JSON.stringify(preview)}` }],
    structuredContent: content,
  };
}
