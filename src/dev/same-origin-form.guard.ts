import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { IncomingHttpHeaders } from 'node:http';
import { unknownRouteError } from '../common/http/error-response';

/**
 * Whether a form post comes from a page of this origin. A page on another site can make a
 * developer's browser post a form to localhost, and the development-aid guard lets that through
 * (the peer is this machine): browsers say where such a post comes from in `Sec-Fetch-Site` and
 * `Origin`, so a post naming another site, or an origin other than the Host it was sent to, is
 * refused. A client that sends neither (curl on this machine) is no browser a page could steer.
 */
export function isSameOriginForm(headers: IncomingHttpHeaders): boolean {
  const site = headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return false;
  const origin = headers.origin;
  if (origin === undefined) return true;
  return origin === `http://${headers.host}` || origin === `https://${headers.host}`;
}

/** Answers a cross-site post as if the route did not exist, like DevelopmentAidGuard. */
@Injectable()
export class SameOriginFormGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (isSameOriginForm(context.switchToHttp().getRequest<{ headers: IncomingHttpHeaders }>().headers)) return true;
    throw unknownRouteError();
  }
}
