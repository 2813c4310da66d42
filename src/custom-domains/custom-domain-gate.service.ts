import { Injectable, type INestApplication } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { ApiError } from '../common/errors/api-error';
import { markCustomDomainHost } from '../common/http/custom-domain-host';
import type { AppConfig } from '../config/app-config';
import { CustomDomainHosts } from './custom-domain-hosts.service';
import { customDomainRoute } from './custom-domain-routes';

const notOnThisDomain = () =>
  new ApiError('NOT_FOUND', 'No such page on this domain.', {
    remediation: "A custom domain serves only its project's changelog page, entry pages, feeds and waitlist page.",
  });

/**
 * A request whose Host is a verified custom domain reaches only that project's public pages
 * (custom-domain-routes.ts): their paths are rewritten to the routes that serve them, so pages and
 * feeds are rendered by their own modules, which write their canonical and feed links on the
 * domain (the request is marked with markCustomDomainHost); everything else, the API, the API reference and the
 * development aids included, is 404 before any route runs, so nothing of another project is ever
 * looked up there. Our own hosts and hosts that are no verified custom domain pass untouched.
 */
@Injectable()
export class CustomDomainGate {
  constructor(private readonly hosts: CustomDomainHosts) {}

  readonly handle = (req: Request, _res: Response, next: NextFunction): void => {
    const hostname = this.hosts.candidate(req.hostname);
    if (hostname === null) return next();
    this.hosts.lookup(hostname).then((found) => {
      if (!found) return next();
      const path = customDomainRoute(req.method, req.path, found.slug);
      if (path === null) return next(notOnThisDomain());
      markCustomDomainHost(req, hostname);
      if (path !== req.path) {
        const query = req.url.indexOf('?');
        req.url = query === -1 ? path : `${path}${req.url.slice(query)}`;
      }
      next();
    }, next);
  };
}

/**
 * Puts the gate in front of every route: called before the API reference and the controllers are
 * mounted (bootstrap.ts), after the request log, so the 404s are logged like any other answer.
 * Nothing while custom domains are off (no CUSTOM_DOMAIN_CNAME_TARGET): then no request pays for it.
 */
export function guardCustomDomains(app: INestApplication, config: Pick<AppConfig, 'customDomains'>): void {
  if (config.customDomains === null) return;
  app.use(app.get(CustomDomainGate).handle);
}
