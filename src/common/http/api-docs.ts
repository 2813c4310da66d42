import { Type, applyDecorators } from '@nestjs/common';
import { STATUS_CODES } from 'node:http';
import { ApiExtraModels, ApiProperty, ApiPropertyOptional, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { ERRORS, ERROR_CODES, type ErrorCode } from '../errors/error-catalog';

export class ErrorObjectDto {
  @ApiProperty({ enum: ERROR_CODES, example: 'VALIDATION_ERROR' })
  code: ErrorCode;

  @ApiProperty({ example: 'Email must be an email.' })
  message: string;

  @ApiProperty({ example: 'Fix the field named in `param` and send the request again.' })
  remediation: string;

  @ApiPropertyOptional({ example: 'email', description: 'The offending field; dotted path for nested fields, or a header name.' })
  param?: string;

  @ApiProperty({ example: 'req_01JD3Z4Q9X8V7T6S5R4Q3P2N1M', description: 'Always present; also sent as the X-Request-Id header.' })
  request_id: string;
}

const NULL_DATA = { type: 'object', nullable: true, enum: [null], description: 'Always null on failure.' };

const NULL_ERROR = { type: 'object', nullable: true, enum: [null], description: 'Always null on success.' };

interface EnvelopeOptions {
  status?: number;
  isArray?: boolean;
  /** Cursor-paginated: `meta.next_cursor` and `meta.has_more` are always present. */
  paged?: boolean;
  description?: string;
  /** Extra documented `meta` properties. */
  meta?: Record<string, object>;
}

function metaSchema(options: EnvelopeOptions): object | undefined {
  const properties: Record<string, object> = { ...(options.meta ?? {}) };
  const required: string[] = [];
  if (options.paged) {
    properties.next_cursor = { type: 'string', nullable: true, description: 'Pass as `cursor` for the next page; null on the last page.' };
    properties.has_more = { type: 'boolean' };
    required.push('next_cursor', 'has_more');
  }
  if (Object.keys(properties).length === 0) return undefined;
  return { type: 'object', properties, required: required.length ? required : undefined, additionalProperties: true };
}

/** Documents the success envelope `{data: Dto, error: null, meta?}` of a route. */
export function ApiEnvelope(model: Type<unknown> | null, options: EnvelopeOptions = {}): MethodDecorator {
  const item = model ? { $ref: getSchemaPath(model) } : { type: 'object', nullable: true };
  const data = options.isArray || options.paged ? { type: 'array', items: item } : item;
  const meta = metaSchema(options);
  const schema = {
    type: 'object',
    required: meta && options.paged ? ['data', 'error', 'meta'] : ['data', 'error'],
    properties: { data, error: NULL_ERROR, ...(meta ? { meta } : {}) },
  };
  const decorators = [ApiResponse({ status: options.status ?? 200, description: options.description ?? 'Success', schema })];
  if (model) decorators.unshift(ApiExtraModels(model));
  return applyDecorators(...decorators);
}

const ERROR_CODES_KEY = 'launch:error-codes';
// Where @nestjs/swagger keeps a handler's documented responses (its DECORATORS.API_RESPONSE, not exported).
const SWAGGER_RESPONSES_KEY = 'swagger/apiResponse';

/**
 * Documents the failure envelopes a route can answer. Codes accumulate across decorators (@Auth
 * adds its own), and each status lists exactly its codes, so a response with an undocumented code
 * fails the OpenAPI check of the e2e suites.
 */
export function ApiErrors(...codes: ErrorCode[]): MethodDecorator {
  return (target, key, descriptor) => {
    const handler = descriptor.value as object;
    const known: ErrorCode[] = Reflect.getMetadata(ERROR_CODES_KEY, handler) ?? [];
    const all = [...new Set([...known, ...codes])];
    Reflect.defineMetadata(ERROR_CODES_KEY, all, handler);
    const byStatus = new Map<number, ErrorCode[]>();
    for (const code of all) byStatus.set(ERRORS[code].status, [...(byStatus.get(ERRORS[code].status) ?? []), code]);
    // @nestjs/swagger appends descriptions for a status documented twice; drop ours before rewriting it.
    const documented: Record<string, unknown> = { ...(Reflect.getMetadata(SWAGGER_RESPONSES_KEY, handler) ?? {}) };
    for (const status of byStatus.keys()) delete documented[status];
    Reflect.defineMetadata(SWAGGER_RESPONSES_KEY, documented, handler);
    const responses = [...byStatus].map(([status, statusCodes]) =>
      ApiResponse({
        status,
        description: `${STATUS_CODES[status] ?? 'Error'}: ${statusCodes.join(', ')}`,
        // The envelope with `error` narrowed to this status's codes (allOf at the `error` level, so
        // strict example checks see every property of the error object evaluated).
        schema: {
          type: 'object',
          required: ['data', 'error'],
          properties: {
            data: NULL_DATA,
            error: {
              allOf: [{ $ref: getSchemaPath(ErrorObjectDto) }, { type: 'object', properties: { code: { enum: statusCodes.sort() } } }],
            },
          },
        },
      }),
    );
    applyDecorators(ApiExtraModels(ErrorObjectDto), ...responses)(target, key, descriptor);
  };
}

/**
 * A property that holds `model` or null (OpenAPI 3.0 has no nullable $ref): the model's schema or
 * null. The class holding it names the model in its @ApiExtraModels.
 */
export function ApiNullableRef(model: Type<unknown>, options: { description: string }): PropertyDecorator {
  return ApiProperty({
    anyOf: [{ $ref: getSchemaPath(model) }, { type: 'object', nullable: true, enum: [null] }],
    description: options.description,
  });
}
