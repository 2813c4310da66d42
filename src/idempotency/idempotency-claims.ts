import { Injectable, SetMetadata } from '@nestjs/common';
import type { Request } from 'express';
import { ApiError } from '../common/errors/api-error';
import { StoredResponse } from '../common/http/error-response';
import { handlerMetadata } from '../common/http/handler-metadata';
import { OutgoingAnswer, setBeforeAnswer } from '../common/http/request-context';
import { IDEMPOTENCY_HEADER, isValidIdempotencyKey, requestFingerprint } from './idempotency-key';
import { IdempotencyStore } from './idempotency.store';

export const IDEMPOTENT = 'launch:idempotent';

/** Marks a route as honouring Idempotency-Key (the @Idempotent() decorator sets it). */
export const MarkIdempotent = (): MethodDecorator => SetMetadata(IDEMPOTENT, true);

// Outcomes that a retry may change are not replayed: a fixed body, a later moment, a healthy server.
function isReplayable(answer: OutgoingAnswer): boolean {
  if (answer.status >= 500 || answer.status === 429) return false;
  const code = (answer.body as { error?: { code?: string } | null }).error?.code;
  return code !== 'VALIDATION_ERROR';
}

const idempotentFlag = handlerMetadata<boolean>(IDEMPOTENT);

/** Whether a route handler honours Idempotency-Key (@Idempotent()). */
export const isIdempotent = (handler: object): boolean => idempotentFlag(handler) === true;

/**
 * Idempotency-Key on the routes marked @Idempotent(): the key is claimed in the database before the
 * handler runs (a replay or a conflict ends the request there), and the answer is recorded by the
 * before-answer hook with exactly the body the client gets. The route-policy guard calls `claim`
 * as the last step of its one pass on idempotent routes, once it knows the caller the key is scoped to. A guard step
 * and a hook rather than an interceptor: routes pay nothing when no key is sent (see
 * common/http/envelope.ts).
 */
@Injectable()
export class IdempotencyClaims {
  constructor(private readonly store: IdempotencyStore) {}

  /** On an @Idempotent() route; `scope`: the API key or dashboard account the key belongs to (null: keys are ignored). */
  async claim(req: Request, scope: string | null): Promise<void> {
    const key = req.headers[IDEMPOTENCY_HEADER.toLowerCase()];
    if (key === undefined) return;
    if (typeof key !== 'string' || !isValidIdempotencyKey(key)) {
      throw new ApiError('VALIDATION_ERROR', 'Idempotency-Key must be 1 to 80 printable ASCII characters.', { param: IDEMPOTENCY_HEADER });
    }
    if (!scope) return;
    const claim = await this.store.claim(scope, key, requestFingerprint(req.method, req.originalUrl, req.body));
    if (claim.kind === 'replay') throw new StoredResponse(claim.status, { ...claim.headers, 'Idempotent-Replayed': 'true' }, claim.body);
    if (claim.kind === 'conflict') throw this.conflict(claim.reason);
    setBeforeAnswer(req, (answer) => this.record(scope, key, answer));
  }

  /** Unexpected errors are 500s: never replayed (and logged once by the filter, not here). */
  private async record(scope: string, key: string, answer: OutgoingAnswer): Promise<void> {
    if (isReplayable(answer)) await this.store.complete(scope, key, answer.status, answer.headers, answer.body);
    else await this.store.release(scope, key);
  }

  private conflict(reason: 'different_body' | 'in_progress'): ApiError {
    const message =
      reason === 'different_body'
        ? 'This Idempotency-Key was already used with a different request body.'
        : 'A request with this Idempotency-Key is still being processed.';
    return new ApiError('IDEMPOTENCY_CONFLICT', message, { param: IDEMPOTENCY_HEADER });
  }
}
