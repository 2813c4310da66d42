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
  express.use(helmet({ crossOriginResourcePolicy: { policy: 'cross-origin' } }));
  express.use(corsMiddleware(app));
  express.useBodyParser('json', { limit: JSON_BODY_LIMIT });
}
