import { createHash } from 'node:crypto';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Request, Response } from 'express';
import { Paged, RawReply, Versioned, WithMeta, WithStatus } from './reply';
import { committedAnswerOf, writeWireAnswer } from './request-context';
import { documentSecurityHeaders } from './security-headers';
import { writeJson } from './write-json';

export interface SuccessEnvelope {
  data: unknown;
  error: null;
  meta?: Record<string, unknown>;
}

/**
 * A handler's return value as the success envelope. It never guesses from a payload's shape: plain
 * values become `{data, error: null}`; `Paged` and `WithMeta` say explicitly what goes into `meta`.
 */
export function toSuccessEnvelope(result: unknown): SuccessEnvelope {
  if (result instanceof Paged) {
    const meta = { ...result.extraMeta, next_cursor: result.nextCursor, has_more: result.nextCursor !== null };
    return { data: result.items, error: null, meta };
  }
  if (result instanceof WithMeta) return { data: result.data ?? null, error: null, meta: result.meta };
  if (result instanceof WithStatus) return toSuccessEnvelope(result.data);
  return { data: result ?? null, error: null };
}

/**
 * A weak validator of what `result` is written as: the SHA-1 of its envelope's JSON, so every
 * process tags equal answers alike and a copy held from one is current on another.
 */
export function envelopeTag(result: unknown): string {
  return `W/"${createHash('sha1')
    .update(JSON.stringify(toSuccessEnvelope(result)))
    .digest('base64url')}"`;
}

/** Whether an If-None-Match header names `tag` (one of a list, or `*`). */
export function holdsTag(ifNoneMatch: string | undefined, tag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((held) => {
    const trimmed = held.trim();
    return trimmed === '*' || trimmed === tag;
  });
}

/** A page, feed or script as it is, with the headers its kind of document needs. */
export function writeRawReply(response: Response, reply: RawReply, statusCode?: number): Response {
  response.status(reply.status ?? statusCode ?? 200).type(reply.contentType);
  // An HTML page is a document: it gets the document headers instead of the API's. Scripts and
  // feeds are embedded on other sites.
  if (reply.contentType.startsWith('text/html')) documentSecurityHeaders(response.req as Request, response, () => undefined);
  else response.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
  for (const [name, value] of Object.entries(reply.headers)) response.setHeader(name, value);
  return response.send(reply.body);
}

/**
 * The one writer of the success envelope: where Nest hands a handler's result to Express. (Not an
 * interceptor: Nest runs a route's interceptors through rxjs and binds an AsyncResource per call,
 * which cost more per request than everything else the envelope needs; routes without interceptors
 * skip that machinery entirely.) A `RawReply` (HTML pages, feeds, scripts) is written as it is.
 * On a request with an Idempotency-Key, the answer recorded in the effect's transaction is written
 * instead, so the first answer and every replay are the same bytes (request-context.ts).
 */
export class EnvelopeExpressAdapter extends ExpressAdapter {
  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    if (body instanceof RawReply) return writeRawReply(response, body, statusCode);
    const committed = committedAnswerOf(response.req as Request);
    if (committed) return writeWireAnswer(response, committed);
    if (body instanceof WithStatus) return writeJson(response, body.status, toSuccessEnvelope(body.data));
    if (body instanceof Versioned) {
      response.setHeader('ETag', body.tag);
      if (body.body !== null) return writeJson(response, statusCode ?? response.statusCode, toSuccessEnvelope(body.body));
      response.statusCode = 304;
      return response.end();
    }
    return writeJson(response, statusCode ?? response.statusCode, toSuccessEnvelope(body));
  }
}
