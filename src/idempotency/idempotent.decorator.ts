import { applyDecorators } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { ApiErrors } from '../common/http/api-docs';
import { IDEMPOTENCY_HEADER } from './idempotency-key';
import { type IdempotentRoute, MarkIdempotent } from './idempotency-claims.service';

const REPLAY =
  '1 to 80 printable ASCII characters, scoped to the API key. A retry with the same key and body within 24 hours replays the original response byte for byte (status, body, X-Request-Id, ETag) with `Idempotent-Replayed: true`; a different body answers 409 IDEMPOTENCY_CONFLICT, and so does a retry while the first request is still running (with Retry-After). Error answers are not recorded: nothing was written, so a retry runs again.';

/** Said of a route whose answer shows a secret (tested against the answer's schema in test/lint). */
export const SEALED_REPLAY_NOTE = 'The recorded answer shows a secret, so it is kept encrypted at rest (ENCRYPTION_KEY) until it expires.';

/**
 * A create route that honours Idempotency-Key (spec: Idempotency). `secretInAnswer`: the answer
 * shows a secret once (an API key, a signing secret, a webhook URL, which may carry a token), so
 * the copy kept for replays is sealed like the secret itself.
 */
export function Idempotent(options: Partial<IdempotentRoute> = {}): MethodDecorator {
  const secretInAnswer = options.secretInAnswer === true;
  return applyDecorators(
    MarkIdempotent({ secretInAnswer }),
    ApiHeader({
      name: IDEMPOTENCY_HEADER,
      required: false,
      description: secretInAnswer ? `${REPLAY} ${SEALED_REPLAY_NOTE}` : REPLAY,
      schema: { type: 'string', minLength: 1, maxLength: 80 },
    }),
    // A sealed copy that ENCRYPTION_KEY no longer opens cannot be replayed.
    secretInAnswer
      ? ApiErrors('VALIDATION_ERROR', 'IDEMPOTENCY_CONFLICT', 'SEALED_VALUE_UNREADABLE')
      : ApiErrors('VALIDATION_ERROR', 'IDEMPOTENCY_CONFLICT'),
  );
}
