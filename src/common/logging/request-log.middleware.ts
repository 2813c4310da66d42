import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { REQUEST_ID_HEADER, requestDurationMs, requestIdOf, requestLogFieldsOf, requestProjectOf } from '../http/request-context';

const QUIET_PATHS = new Set(['/v1/_health']);

/**
 * The first middleware: gives the request its id (the X-Request-Id header of every response) and
 * writes ONE line when the response is finished — request id, method, route pattern, status,
 * duration and project — built once, without bodies, headers or query strings.
 */
export function requestLogMiddleware(logger: Logger): (req: Request, res: Response, next: NextFunction) => void {
  const enabled = logger.isLevelEnabled('info');
  // One listener function for every response (no closure per request): it reads the request off `this`.
  function logFinished(this: Response): void {
    const req = this.req;
    const status = this.statusCode;
    const line = {
      request_id: requestIdOf(req),
      method: req.method,
      // The route pattern (no ids or query strings), or the path when no route matched.
      route: (req.route as { path?: string } | undefined)?.path ?? req.path,
      status,
      duration_ms: Math.round(requestDurationMs(req) * 1000) / 1000,
      project_id: requestProjectOf(req),
      ...requestLogFieldsOf(req),
    };
    if (status >= 500) logger.error(line, 'request failed');
    else logger.info(line, 'request');
  }
  return (req, res, next) => {
    res.setHeader(REQUEST_ID_HEADER, requestIdOf(req));
    if (enabled && !QUIET_PATHS.has(req.path)) res.on('finish', logFinished);
    next();
  };
}
