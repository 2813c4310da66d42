import type { NextFunction, Request, Response } from 'express';
import { requestIdOf } from './request-context';

export const REQUEST_ID_HEADER = 'X-Request-Id';

/** Every response carries its request id; error bodies repeat it as `request_id`. */
export function requestIdMiddleware(req: Request, res: Response, next: NextFunction): void {
  res.setHeader(REQUEST_ID_HEADER, requestIdOf(req));
  next();
}
