import { Inject, Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { CustomDomainHosts } from './custom-domain-hosts.service';
import { customDomainPath, isCustomDomainPath } from './custom-domain-routes';
import { normalizeHostname } from './hostnames';

/**
 * Serves a verified custom domain's paths from the hosted changelog's routes by rewriting the URL
 * before routing (custom-domain-routes.ts). Everything else passes untouched, without a lookup:
 * other paths, other methods, our own hosts, and every request while custom domains are off.
 */
@Injectable()
export class CustomDomainHostMiddleware implements NestMiddleware {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly hosts: CustomDomainHosts,
  ) {}

  use(req: Request, _res: Response, next: NextFunction): void {
    // Express runs this as a catch-all GET route and leaves it as `req.route`; the request log would
    // then name every unmatched request after it. The route that answers sets its own.
    delete (req as { route?: unknown }).route;
    if (!this.config.customDomains || !isCustomDomainPath(req.path)) return next();
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
