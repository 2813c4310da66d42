import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import helmet from 'helmet';
import type { AppConfig } from '../../config/app-config';
import { corsMiddleware } from './cors-policy';
import { requestIdMiddleware } from './request-id.middleware';

export const JSON_BODY_LIMIT = '1mb';

/** Express-level setup shared by the server and the e2e suites, so tests exercise the real stack. */
export function configureHttp(app: INestApplication, config: AppConfig): void {
  const express = app as NestExpressApplication;
  express.set('trust proxy', config.trustProxy);
  express.disable('x-powered-by');
  express.use(requestIdMiddleware);
  express.use(
    helmet({
      // Browser scripts and feeds are embedded on other sites; and a self-hosted server may well run on
      // plain http, where upgrading /docs' own scripts to https would break the page.
      crossOriginResourcePolicy: { policy: 'cross-origin' },
      contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } },
    }),
  );
  express.use(corsMiddleware(app));
  express.useBodyParser('json', { limit: JSON_BODY_LIMIT });
}
