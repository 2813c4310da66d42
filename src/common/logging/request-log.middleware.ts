import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { REQUEST_ID_HEADER, requestIdOf, requestProjectOf } from '../http/request-context';

const QUIET_PATHS = new Set(['/v1/_health']);

/**
 * The first middleware: gives the request its id (the X-Request-Id header of every response) and
 * writes ONE line when the response is finished — request id, method, route pattern, status,
 * duration and project — built once, without bodies, headers or query strings.
 */
export function requestLogMiddleware(logger: Logger): (req: Request, res: Response, next: NextFunction) => void {
  const enabled = logger.isLevelEnabled('info');
  return (req, res, next) => {
    const requestId = requestIdOf(req);
    res.setHeader(REQUEST_ID_HEADER, requestId);
    if (enabled && !QUIET_PATHS.has(req.path)) {
      const started = process.hrtime.bigint();
      res.once('finish', () => {
        const status = res.statusCode;
        const line = {
          request_id: requestId,
          method: req.method,
          // The route pattern (no ids or query strings), or the path when no route matched.
          route: (req.route as { path?: string } | undefined)?.path ?? req.path,
          status,
          duration_ms: Number(process.hrtime.bigint() - started) / 1e6,
          project_id: requestProjectOf(req),
        };
        if (status >= 500) logger.error(line, 'request failed');
        else logger.info(line, 'request');
      });
    }
    next();
  };
}
