import { SetMetadata, applyDecorators } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { ApiErrors } from '../common/http/api-docs';

export const IDEMPOTENT = 'launch:idempotent';
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** A create route that honours Idempotency-Key (spec: Idempotency). */
export function Idempotent(): MethodDecorator {
  return applyDecorators(
    SetMetadata(IDEMPOTENT, true),
    ApiHeader({
      name: IDEMPOTENCY_HEADER,
      required: false,
      description:
        '1 to 80 printable ASCII characters. A retry with the same key and body within 24 hours replays the original response; a different body answers 409 IDEMPOTENCY_CONFLICT.',
      schema: { type: 'string', minLength: 1, maxLength: 80 },
    }),
    ApiErrors('VALIDATION_ERROR', 'IDEMPOTENCY_CONFLICT'),
  );
}
