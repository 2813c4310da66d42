import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import helmet from 'helmet';
import type { Logger } from 'pino';
import type { AppConfig } from '../../config/app-config';
import { requestLogMiddleware } from '../logging/request-log.middleware';
import { corsMiddleware } from './cors-policy';

export const JSON_BODY_LIMIT = '1mb';

/** Express-level setup shared by the server and the e2e suites, so tests exercise the real stack. */
export function configureHttp(app: INestApplication, config: AppConfig, logger: Logger): void {
  const express = app as NestExpressApplication;
  express.set('trust proxy', config.trustProxy);
  express.disable('x-powered-by');
  express.use(requestLogMiddleware(logger));
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
