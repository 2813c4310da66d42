import type { INestApplication } from '@nestjs/common';
import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import cors from 'cors';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { routePolicyOf } from './route-policy';

interface BrowserRoute {
  method: string;
  pattern: RegExp;
}

function joinPath(...parts: (string | undefined)[]): string {
  return `/${parts.filter(Boolean).join('/')}`.replace(/\/+/g, '/').replace(/(.)\/$/, '$1');
}

function toPattern(path: string): RegExp {
  const escaped = path.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z_]+/g, '[^/]+');
  return new RegExp(`^${escaped}/?$`);
}

/** Every route whose @Auth policy marks it a browser endpoint, read from the controllers' metadata. */
export function browserRoutes(app: INestApplication): BrowserRoute[] {
  const discovery = app.get(DiscoveryService);
  const scanner = app.get(MetadataScanner);
  const routes: BrowserRoute[] = [];
  for (const wrapper of discovery.getControllers()) {
    const instance = wrapper.instance as Record<string, unknown> | undefined;
    if (!instance || !wrapper.metatype) continue;
    const prefix = Reflect.getMetadata(PATH_METADATA, wrapper.metatype) as string | undefined;
    for (const name of scanner.getAllMethodNames(Object.getPrototypeOf(instance))) {
      const handler = instance[name] as object;
      if (!routePolicyOf(handler)?.browser) continue;
      const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number];
      routes.push({ method, pattern: toPattern(joinPath(prefix, Reflect.getMetadata(PATH_METADATA, handler) as string)) });
    }
  }
  return routes;
}

export const CORS_ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'Idempotency-Key', 'X-Service-User-Hash'];
export const CORS_EXPOSED_HEADERS = ['X-Request-Id', 'Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining'];

/**
 * CORS is open (any origin) on the public and browser endpoints, and closed everywhere else: no
 * CORS headers, so browsers refuse cross-origin calls that would expose a secret key.
 */
export function corsMiddleware(app: INestApplication): RequestHandler {
  let routes: BrowserRoute[] | null = null;
  const open = cors({
    origin: '*',
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: CORS_ALLOWED_HEADERS,
    exposedHeaders: CORS_EXPOSED_HEADERS,
    maxAge: 600,
  });
  return (req: Request, res: Response, next: NextFunction) => {
    // Without an Origin header there is no cross-origin request to answer (servers, curl).
    if (req.headers.origin === undefined) return next();
    routes ??= browserRoutes(app);
    const path = req.path;
    const method = req.method === 'OPTIONS' ? String(req.headers['access-control-request-method'] ?? '').toUpperCase() : req.method;
    const isBrowserRoute = routes.some((route) => route.method === method && route.pattern.test(path));
    if (isBrowserRoute) open(req, res, next);
    else next();
  };
}
