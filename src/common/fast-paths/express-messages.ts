import { IncomingMessage, ServerResponse, type ServerOptions } from 'node:http';
import type { Express } from 'express';

/**
 * The request and response classes for the HTTP server, born with Express's prototypes.
 *
 * Express gives every request and response its own prototype when it takes them
 * (`Object.setPrototypeOf(req, app.request)`), and V8 does not share the hidden class of an object
 * whose prototype was changed and which then gains properties (Express adds `res.locals` right
 * after; the router, Nest and our steps add more): every request and every response ends up with a
 * hidden class of its own, so every property access on them in Node's http code, Express, Nest and
 * ours misses its inline cache and is looked up the slow way. Created with these classes, the
 * objects already have the prototype Express sets, V8 skips a change to the same prototype, and they
 * share their hidden classes from one request to the next.
 *
 * Measured (2026-11-29, 2-vCPU machine): V8's inline-cache log of a bell poll showed some 70
 * lookups a request on a hidden class never seen before, one hidden class per response; with these
 * classes, one for all of them (express-messages.spec.ts holds it).
 */
export function expressMessageClasses(app: Express): Pick<ServerOptions, 'IncomingMessage' | 'ServerResponse'> {
  // Node constructs them with `new`, as it does its own; plain functions so that the prototype can
  // be Express's objects (a class's prototype cannot be replaced).
  function ExpressRequest(this: IncomingMessage, socket: IncomingMessage['socket']): void {
    IncomingMessage.call(this, socket);
  }
  ExpressRequest.prototype = app.request;
  function ExpressResponse(this: ServerResponse, req: IncomingMessage, options?: unknown): void {
    (ServerResponse as unknown as (this: ServerResponse, req: IncomingMessage, options?: unknown) => void).call(this, req, options);
  }
  ExpressResponse.prototype = app.response;
  return {
    IncomingMessage: ExpressRequest as unknown as typeof IncomingMessage,
    ServerResponse: ExpressResponse as unknown as typeof ServerResponse,
  };
}
