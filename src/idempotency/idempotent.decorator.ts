import { applyDecorators } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { ApiErrors } from '../common/http/api-docs';
import { IDEMPOTENCY_HEADER } from './idempotency-key';
import { MarkIdempotent } from './idempotency-claims.service';

/** A create route that honours Idempotency-Key (spec: Idempotency). */
export function Idempotent(): MethodDecorator {
  return applyDecorators(
    MarkIdempotent(),
    ApiHeader({
      name: IDEMPOTENCY_HEADER,
      required: false,
      description:
        '1 to 80 printable ASCII characters, scoped to the API key. A retry with the same key and body within 24 hours replays the original response byte for byte (status, body, X-Request-Id, ETag) with `Idempotent-Replayed: true`; a different body answers 409 IDEMPOTENCY_CONFLICT, and so does a retry while the first request is still running (with Retry-After). Error answers are not recorded: nothing was written, so a retry runs again.',
      schema: { type: 'string', minLength: 1, maxLength: 80 },
    }),
    ApiErrors('VALIDATION_ERROR', 'IDEMPOTENCY_CONFLICT'),
  );
}
