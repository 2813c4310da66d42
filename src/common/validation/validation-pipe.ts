import { ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';
import { ApiError } from '../errors/api-error';

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

/** The path of the first string (or key) holding a NUL character, which PostgreSQL cannot store. */
export function findNulCharacter(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path || 'body' : null;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      const found = findNulCharacter(value[index], path ? `${path}.${index}` : String(index));
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const itemPath = path ? `${path}.${key}` : key;
      if (key.includes('\u0000')) return itemPath;
      const found = findNulCharacter(item, itemPath);
      if (found) return found;
    }
  }
  return null;
}

class ApiValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' || metadata.type === 'query') {
      const path = findNulCharacter(value);
      if (path) throw new ApiError('VALIDATION_ERROR', `${path} must not contain the NUL character.`, { param: path });
    }
    return super.transform(value, metadata);
  }
}

/**
 * The global pipe: whitelisted DTOs, unknown fields refused, values transformed. Its failures become
 * VALIDATION_ERROR naming the first offending field in `param`.
 */
export function createValidationPipe(): ValidationPipe {
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
