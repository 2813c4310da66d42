import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { Paged, RawReply, WithMeta, WithStatus } from './reply';
import { writeBytes } from '../fast-paths/json-writer';
import { documentSecurityHeaders } from './security-headers';

interface SuccessEnvelope {
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
  const status = reply.status ?? statusCode ?? 200;
  const bytes = reply.bytes;
  if (!bytes) response.status(status).type(reply.contentType);
  // An HTML page is a document: it gets the document headers instead of the API's. Scripts and
  // feeds are embedded on other sites.
  if (reply.contentType.startsWith('text/html')) documentSecurityHeaders(response.req as Request, response, () => undefined);
  else response.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
  for (const [name, value] of Object.entries(reply.headers)) response.setHeader(name, value);
  return bytes ? writeBytes(response, status, reply.contentType, bytes) : response.send(reply.body);
}
