import { ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';
import { ApiError } from '../errors/api-error';
import { cacheValidationMetadata } from '../fast-paths/validation-metadata-cache';
import { carryInputBinding } from '../http/request-context';
import { ValidatedQueries } from './validated-queries';

interface FirstFailure {
  path: string;
  message: string;
}

/** Depth-first: the first failing leaf, with its dotted path ("source.utm_source", "actions.0.url"). */
export function firstFailure(errors: ValidationError[], parent = ''): FirstFailure | null {
  for (const error of errors) {
    const path = parent ? `${parent}.${error.property}` : error.property;
    const messages = Object.values(error.constraints ?? {});
    if (messages.length > 0) return { path, message: messages[0] };
    const nested = firstFailure(error.children ?? [], path);
    if (nested) return nested;
  }
  return null;
}

function humanize({ path, message }: FirstFailure): string {
  if (message.includes('should not exist')) return `Unknown field "${path}".`;
  // class-validator messages start with the bare property name; use the full path instead.
  const leaf = path.split('.').pop() ?? path;
  const text = message.startsWith(`${leaf} `) ? `${path} ${message.slice(leaf.length + 1)}` : message;
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Text PostgreSQL cannot store as sent: a NUL character, or a lone UTF-16 surrogate (which would
 * silently become U+FFFD, and which makes some validators throw).
 */
function isUnstorableText(text: string): boolean {
  return text.includes('\u0000') || LONE_SURROGATE.test(text);
}

/** The path of the first string (or key) holding unstorable text. */
export function findUnstorableText(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return isUnstorableText(value) ? path || 'body' : null;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      const found = findUnstorableText(value[index], path ? `${path}.${index}` : String(index));
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const itemPath = path ? `${path}.${key}` : key;
      if (isUnstorableText(key)) return itemPath;
      const found = findUnstorableText(item, itemPath);
      if (found) return found;
    }
  }
  return null;
}

class ApiValidationPipe extends ValidationPipe {
  private readonly validatedQueries = new ValidatedQueries();

  override transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const dtoClass = metadata.type === 'query' && metadata.data === undefined ? metadata.metatype : undefined;
    if (!dtoClass) return this.validated(value, metadata);
    const key = this.validatedQueries.keyOf(dtoClass, value);
    if (key === null) return this.validated(value, metadata);
    const recalled = this.validatedQueries.recall(key);
    if (recalled) return Promise.resolve(recalled);
    return this.validated(value, metadata).then((dto) => {
      if (dto instanceof dtoClass) this.validatedQueries.keep(key, dto);
      return dto;
    });
  }

  private async validated(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' || metadata.type === 'query') {
      // A single query parameter (`@Query('label')`) is named by its own name.
      const path = findUnstorableText(value, metadata.data ?? '');
      if (path) {
        throw new ApiError('VALIDATION_ERROR', `${path} must be well-formed text without NUL characters.`, { param: path });
      }
    }
    try {
      const input: unknown = await super.transform(value, metadata);
      // The Idempotency-Key claim bound to the request body goes with the DTO to the service.
      if (metadata.type === 'body') carryInputBinding(value, input);
      return input;
    } catch (error) {
      if (error instanceof ApiError) throw error;
      // A validator that throws on odd input is still a refusal of that input, not a server error.
      throw new ApiError('VALIDATION_ERROR', 'The request could not be validated.', { param: metadata.data ?? metadata.type });
    }
  }
}

/**
 * The global pipe: whitelisted DTOs, unknown fields refused, values transformed. Its failures become
 * VALIDATION_ERROR naming the first offending field in `param`. A whole query (`@Query()` with its
 * DTO) that passed once is answered from what it validated to (validated-queries.ts).
 */
export function createValidationPipe(): ValidationPipe {
  cacheValidationMetadata();
  return new ApiValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    stopAtFirstError: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors: ValidationError[]) => {
      const failure = firstFailure(errors) ?? { path: 'body', message: 'the request is invalid' };
      return new ApiError('VALIDATION_ERROR', humanize(failure), { param: failure.path });
    },
  });
}
