import { Inject, Injectable, SetMetadata } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import type { Request } from 'express';
import { Clock } from '../common/clock/clock';
import { ApiError } from '../common/errors/api-error';
import { handlerMetadata } from '../common/http/handler-metadata';
import { bindRequestBody, requestIdOf, requestProjectOf, setCommittedAnswerSource } from '../common/http/request-context';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { PLATFORM_LIMITS } from '../projects/plans';
import { answerFromRecord, EtagFunction, IdempotentCall } from './idempotent-call';
import { IDEMPOTENCY_HEADER, isValidIdempotencyKey, requestFingerprint } from './idempotency-key';
import { IdempotencyStore } from './idempotency-store.service';

const IDEMPOTENT = 'launch:idempotent';

/** How a route honours Idempotency-Key (the @Idempotent() decorator sets it). */
export interface IdempotentRoute {
  /** Its answer shows a secret once: the stored copy is sealed with ENCRYPTION_KEY. */
  readonly secretInAnswer: boolean;
}

/** Marks a route as honouring Idempotency-Key (the @Idempotent() decorator sets it). */
export const MarkIdempotent = (route: IdempotentRoute): MethodDecorator => SetMetadata(IDEMPOTENT, route);

const idempotentRouteOf = handlerMetadata<IdempotentRoute>(IDEMPOTENT);
const httpCodeOf = handlerMetadata<number>(HTTP_CODE_METADATA);
const RETENTION_MS = PLATFORM_LIMITS.idempotencyRetentionHours * 3_600_000;

/** Whether a route handler honours Idempotency-Key (@Idempotent()). */
export const isIdempotent = (handler: object): boolean => idempotentRouteOf(handler) !== null;

/**
 * Idempotency-Key on the routes marked @Idempotent(), the last step of the route-policy guard (it
 * knows the caller the key is scoped to). Before anything else runs, a committed answer for the key
 * is replayed (or a different body refused), so a retry never meets a used Turnstile token or a
 * duplicate check. Otherwise the request gets an IdempotentCall, bound to its body: the DTO the
 * ValidationPipe builds from that body carries it to the service, whose transaction completes it
 * (`idempotently(em, input, …)`, idempotent-call.ts). Without the header this costs nothing: no
 * query, no object, no await.
 * Answers are recorded only with a committed effect: an error rolled everything back, so a retry
 * runs again (Stripe stores no answer for requests refused before they ran, either).
 */
@Injectable()
export class IdempotencyClaims {
  private readonly delayAfterCommitMs: number;

  constructor(
    private readonly store: IdempotencyStore,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.delayAfterCommitMs = config.testDelayAfterIdempotentCommitMs ?? 0;
  }

  /** On an @Idempotent() route; `scope`: the API key or dashboard account the key belongs to (null: keys are ignored). */
  claim(req: Request, scope: string | null, handler: object): Promise<void> | void {
    const key = req.headers[IDEMPOTENCY_HEADER.toLowerCase()];
    if (key === undefined) return;
    if (typeof key !== 'string' || !isValidIdempotencyKey(key)) {
      throw new ApiError('VALIDATION_ERROR', 'Idempotency-Key must be 1 to 80 printable ASCII characters.', { param: IDEMPOTENCY_HEADER });
    }
    if (!scope) return;
    return this.open(req, scope, key, handler);
  }

  private async open(req: Request, scope: string, key: string, handler: object): Promise<void> {
    const receivedAt = this.clock.now();
    const requestHash = requestFingerprint(req.method, req.originalUrl, req.body);
    const stored = await this.store.find(scope, key, receivedAt);
    if (stored) throw answerFromRecord(stored, requestHash);
    const res = req.res!;
    const call = new IdempotentCall(this.store, {
      scope,
      key,
      projectId: requestProjectOf(req),
      requestHash,
      receivedAt,
      expiresAt: new Date(receivedAt.getTime() + RETENTION_MS),
      requestId: requestIdOf(req),
      status: httpCodeOf(handler) ?? (req.method === 'POST' ? 201 : 200),
      res,
      etag: (req.app.get('etag fn') as EtagFunction | undefined) ?? null,
      delayAfterCommitMs: this.delayAfterCommitMs,
      sealed: idempotentRouteOf(handler)?.secretInAnswer === true,
    });
    setCommittedAnswerSource(req, call);
    bindRequestBody(req, call);
  }
}
