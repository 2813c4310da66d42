import { CallHandler, ExecutionContext, HttpStatus, Injectable, NestInterceptor } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { Observable, catchError, from, mergeMap } from 'rxjs';
import { ApiError } from '../common/errors/api-error';
import { callerOf, idempotencyScopeOf } from '../auth/caller';
import { toSuccessEnvelope } from '../common/http/envelope';
import { StoredResponse, toErrorResponse } from '../common/http/error-response';
import { REQUEST_ID_HEADER, requestIdOf } from '../common/http/request-context';
import { IdempotencyStore } from './idempotency.store';
import { IDEMPOTENCY_HEADER, isValidIdempotencyKey, requestFingerprint } from './idempotency-key';

// Outcomes that a retry may change are not replayed: a fixed body, a later moment, a healthy server.
function isReplayable(status: number, code?: string): boolean {
  if (status >= 500 || status === 429) return false;
  return code !== 'VALIDATION_ERROR';
}

/**
 * On the routes marked @Idempotent() only. It stores the envelope exactly as the client gets it; a
 * replay is written by the exception filter from the stored status, headers and body.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly store: IdempotencyStore,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const req = context.switchToHttp().getRequest<Request>();
    const key = req.headers[IDEMPOTENCY_HEADER.toLowerCase()];
    if (key === undefined) return next.handle();
    if (typeof key !== 'string' || !isValidIdempotencyKey(key)) {
      throw new ApiError('VALIDATION_ERROR', 'Idempotency-Key must be 1 to 80 printable ASCII characters.', { param: IDEMPOTENCY_HEADER });
    }
    const scope = idempotencyScopeOf(callerOf(req));
    if (!scope) return next.handle();
    const successStatus: number =
      this.reflector.get<number>(HTTP_CODE_METADATA, context.getHandler()) ?? (req.method === 'POST' ? HttpStatus.CREATED : HttpStatus.OK);
    return from(this.store.claim(scope, key, requestFingerprint(req.method, req.originalUrl, req.body))).pipe(
      mergeMap((claim) => {
        if (claim.kind === 'replay') {
          throw new StoredResponse(claim.status, { ...claim.headers, 'Idempotent-Replayed': 'true' }, claim.body);
        }
        if (claim.kind === 'conflict') throw this.conflict(claim.reason);
        return this.runAndRecord(next, req, context.switchToHttp().getResponse<Response>(), scope, key, successStatus);
      }),
    );
  }

  private runAndRecord(next: CallHandler, req: Request, res: Response, scope: string, key: string, status: number): Observable<unknown> {
    const headersOf = (extra: Record<string, string>) => ({ ...extra, [REQUEST_ID_HEADER]: requestIdOf(req) });
    return next.handle().pipe(
      mergeMap(async (body) => {
        const location = res.getHeader('Location');
        const headers = headersOf(location ? { Location: String(location) } : {});
        await this.store.complete(scope, key, status, headers, toSuccessEnvelope(body));
        return body;
      }),
      catchError(async (error: unknown) => {
        // Unexpected errors are 500s: never replayed, and logged once by the filter, not here.
        if (error instanceof ApiError && isReplayable(error.status, error.code)) {
          const response = toErrorResponse(error, requestIdOf(req));
          await this.store.complete(scope, key, response.status, headersOf(response.headers), response.body);
        } else {
          await this.store.release(scope, key);
        }
        throw error;
      }),
    );
  }

  private conflict(reason: 'different_body' | 'in_progress'): ApiError {
    const message =
      reason === 'different_body'
        ? 'This Idempotency-Key was already used with a different request body.'
        : 'A request with this Idempotency-Key is still being processed.';
    return new ApiError('IDEMPOTENCY_CONFLICT', message, { param: IDEMPOTENCY_HEADER });
  }
}
