import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { requestLogMiddleware } from '../logging/request-log.middleware';
import { corsMiddleware } from './cors-policy';
import { jsonBody } from './json-body';
import { lenientPathDecoding } from './path-decoding';
import { securityHeaders } from './security-headers';

/** Runs middlewares one after another as one; an error skips the rest, as in Express. */
function chain(...handlers: RequestHandler[]): RequestHandler {
  return (req, res, next) => {
    let index = 0;
    const step = (error?: unknown): void => {
      const handler = handlers[index];
      index += 1;
      if (error !== undefined || !handler) return next(error);
      handler(req, res, step);
    };
    step();
  };
}

/** What the Express layer reads of the configuration (AppConfig has it; the kernel's common/ imports no config/). */
interface HttpSettings {
  /** Express's `trust proxy`: off, a hop count, or addresses and range names. */
  readonly trustProxy: false | number | readonly string[];
  readonly trustProxyWarning: string | null;
  readonly publicBaseUrl: string;
  readonly dashboardOrigins: readonly string[];
}

/** Express-level setup shared by the server and the e2e suites, so tests exercise the real stack. */
export function configureHttp(app: INestApplication, config: HttpSettings, logger: Logger): void {
  const express = app as NestExpressApplication;
  express.set('trust proxy', config.trustProxy);
  if (config.trustProxyWarning) logger.warn({ context: 'Config' }, config.trustProxyWarning);
  express.disable('x-powered-by');
  // One Express layer for the five, in this order: each layer costs the router a step per request.
  express.use(
    chain(
      requestLogMiddleware(logger),
      securityHeaders(config.publicBaseUrl),
      corsMiddleware(app, config),
      jsonBody(),
      lenientPathDecoding,
    ),
  );
}
