import { CallHandler, ExecutionContext, Injectable, NestInterceptor, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Observable, map } from 'rxjs';
import { Paged, WithMeta } from './reply';

export const RAW_RESPONSE = 'launch:raw-response';

/** The route writes its own body (a feed, a script, an HTML page): no envelope. */
export const RawResponse = (): MethodDecorator => SetMetadata(RAW_RESPONSE, true);

export interface SuccessEnvelope {
  data: unknown;
  error: null;
  meta?: Record<string, unknown>;
}

/** Turns a handler's return value into the success envelope. */
export function toSuccessEnvelope(result: unknown): SuccessEnvelope {
  if (result instanceof Paged) {
    const meta = { ...result.extraMeta, next_cursor: result.nextCursor, has_more: result.nextCursor !== null };
    return { data: result.items, error: null, meta };
  }
  if (result instanceof WithMeta) return { data: result.data ?? null, error: null, meta: result.meta };
  return { data: result ?? null, error: null };
}

/** The one writer of `{data, error: null, meta?}`. Feeds, scripts and pages opt out with @RawResponse(). */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const raw = this.reflector.getAllAndOverride<boolean>(RAW_RESPONSE, [context.getHandler(), context.getClass()]);
    if (raw || context.getType() !== 'http') return next.handle();
    return next.handle().pipe(map(toSuccessEnvelope));
  }
}
