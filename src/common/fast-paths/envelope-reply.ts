import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Request, Response } from 'express';
import { createServer } from 'node:http';
import { expressMessageClasses } from './express-messages';
import { toSuccessEnvelope, writeRawReply } from '../http/envelope';
import { RawReply, Versioned, WithStatus } from '../http/reply';
import { committedAnswerOf, writeWireAnswer } from '../http/request-context';
import { writeJson } from './json-writer';

/**
 * The one writer of the success envelope: where Nest hands a handler's result to Express, the
 * adapter's `reply`, which Nest's router calls with every result of a handler that does not take
 * `@Res()`. Not an interceptor: Nest runs a route's interceptors through rxjs and binds an
 * AsyncResource per call; a route without interceptors skips that machinery entirely. Measured
 * (2026-11-29, 2-vCPU machine, a route answering a small object, three paired autocannon runs on a
 * loaded machine): the server spent 0.55-0.71 of the CPU per request an envelope interceptor costs. A `RawReply` (HTML pages, feeds, scripts) is written as it is. On a request
 * with an Idempotency-Key, the answer recorded in the effect's transaction is written instead, so
 * the first answer and every replay are the same bytes (request-context.ts).
 *
 * Relies on: Nest calling `applicationRef.reply(response, result, statusCode)` once per request with
 * the handler's resolved result, the route's status already on the response or passed as
 * `statusCode` (envelope-reply.spec.ts checks it).
 */
export class EnvelopeExpressAdapter extends ExpressAdapter {
  /**
   * The HTTP server, with requests and responses born with Express's prototypes
   * (express-messages.ts). HTTPS and Nest's connection tracking, which the service does not use, are
   * left to Nest's own server.
   */
  override initHttpServer(options: NestApplicationOptions): void {
    if (options?.httpsOptions || options?.forceCloseConnections) return super.initHttpServer(options);
    this.httpServer = createServer(expressMessageClasses(this.getInstance()), this.getInstance());
  }

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
