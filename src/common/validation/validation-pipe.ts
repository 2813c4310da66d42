import { ValidationError, ValidationPipe } from '@nestjs/common';
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

/**
 * The global pipe: whitelisted DTOs, unknown fields refused, values transformed. Its failures become
 * VALIDATION_ERROR naming the first offending field in `param`.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
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
