import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { CustomDomainHosts } from './custom-domain-hosts.service';
import { customDomainPath, isCustomDomainPath } from './custom-domain-routes';
import { normalizeHostname } from './hostnames';

/**
 * Serves a verified custom domain's paths from the hosted changelog's routes by rewriting the URL
 * before routing (custom-domain-routes.ts). Everything else passes untouched, without a lookup:
 * other paths, other methods and our own hosts. While custom domains are off (no
 * CUSTOM_DOMAIN_CNAME_TARGET) it is not registered at all (custom-domains.module.ts).
 */
@Injectable()
export class CustomDomainHostMiddleware implements NestMiddleware {
  constructor(private readonly hosts: CustomDomainHosts) {}

  use(req: Request, _res: Response, next: NextFunction): void {
    // Express runs this as a catch-all GET route and leaves it as `req.route`; the request log would
    // then name every unmatched request after it. The route that answers sets its own. (Cleared,
    // not deleted: a delete turns the request object into a slow dictionary for everything after.)
    (req as { route?: unknown }).route = undefined;
    if (!isCustomDomainPath(req.path)) return next();
    const hostname = normalizeHostname(req.hostname ?? '');
    if (hostname === '' || this.hosts.isOwnHost(hostname)) return next();
    this.hosts.lookup(hostname).then((found) => {
      const path = found ? customDomainPath(req.path, found.slug) : null;
      if (path) {
        const query = req.url.indexOf('?');
        req.url = query === -1 ? path : `${path}${req.url.slice(query)}`;
      }
      next();
    }, next);
  }
}
