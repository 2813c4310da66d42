import { Injectable } from '@nestjs/common';
import { IdempotencyClaims, isIdempotent } from '../../idempotency/idempotency-claims.service';
import { idempotencyScopeOf } from '../caller';
import type { PolicyContext, PolicyStep } from './policy-step';

/**
 * Idempotency-Key on the routes marked @Idempotent(): last, because the key is scoped to the
 * caller (its API key or dashboard account) and only a request that passed every check may be
 * answered with a recorded answer. A committed answer for the key is replayed from here, before
 * validation or the handler run; otherwise the request carries its claim to the service's
 * transaction (idempotency/idempotency-claims.service.ts).
 */
@Injectable()
export class IdempotencyStep implements PolicyStep {
  constructor(private readonly claims: IdempotencyClaims) {}

  run(context: PolicyContext): Promise<void> | void {
    if (!isIdempotent(context.handler)) return;
    return this.claims.claim(context.req, idempotencyScopeOf(context.caller), context.handler);
  }
}
