import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { corsHeadersForFailure } from './cors-policy';
import { writeRawReply } from './envelope';
import { committedAnswerOf, REQUEST_ID_HEADER, requestIdOf, writeWireAnswer } from './request-context';
import { StoredResponse, toErrorResponse } from './error-response';
import { PermanentRedirect, redirectLocation } from './permanent-redirect';
import { RawReply } from './reply';
import { writeJson } from '../fast-paths/json-writer';

/** The one writer of the failure envelope, for every error: ours, validation, parsing, routing, unknown. */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    writeError(exception, http.getRequest<Request>(), http.getResponse<Response>());
  }
}

const logger = new Logger('ExceptionFilter');

export function writeError(exception: unknown, req: Request, res: Response): void {
  if (res.headersSent) return;
  if (exception instanceof StoredResponse) {
    writeWireAnswer(res, exception.answer, exception.extraHeaders);
    return;
  }
  // A page route's refusal is its page (a path parameter of the wrong shape: path-param.pipe.ts).
  if (exception instanceof RawReply) {
    writeRawReply(res, exception);
    return;
  }
  // no-store: a project may take an old slug back, and a cached redirect would then loop.
  const location = exception instanceof PermanentRedirect ? redirectLocation(req, exception) : null;
  if (location !== null) {
    res
      .status(308)
      .set({ Location: location, [REQUEST_ID_HEADER]: requestIdOf(req), 'Cache-Control': 'no-store' })
      .end();
    return;
  }
  // The effect committed with its answer recorded; a failure after COMMIT (a wake-up, a write of
  // the answer) must not tell the client otherwise: a retry would replay that recorded answer.
  const committed = committedAnswerOf(req);
  if (committed) {
    logger.warn(`failed after the idempotent effect committed: ${(exception as Error)?.message ?? String(exception)}`);
    writeWireAnswer(res, committed);
    return;
  }
  const requestId = requestIdOf(req);
  const { status, headers, body } = toErrorResponse(exception, requestId);
  res.set({ ...headers, ...corsHeadersForFailure(res), [REQUEST_ID_HEADER]: requestId });
  writeJson(res, status, body);
}
