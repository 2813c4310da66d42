import type { INestApplication } from '@nestjs/common';
import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import cors from 'cors';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { type AuthMode, routePolicyOf } from './route-policy';

interface BrowserRoute {
  method: string;
  pattern: RegExp;
}

/**
 * Routes a browser may call: open ones (any origin) and dashboard ones (DASHBOARD_ORIGINS only);
 * secret-key routes, whose refusals (not answers) a browser may read.
 */
interface CorsRoutes {
  open: BrowserRoute[];
  dashboard: BrowserRoute[];
  secret: BrowserRoute[];
}

const DASHBOARD_MODES: ReadonlySet<AuthMode> = new Set(['dashboard', 'dashboard_account', 'signed_in']);

function joinPath(...parts: (string | undefined)[]): string {
  return `/${parts.filter(Boolean).join('/')}`.replace(/\/+/g, '/').replace(/(.)\/$/, '$1');
}

function toPattern(path: string): RegExp {
  const escaped = path.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z_]+/g, '[^/]+');
  return new RegExp(`^${escaped}/?$`);
}

/** Browser endpoints and dashboard (JWT) endpoints by their @Auth policy, read from the controllers' metadata. */
function corsRoutes(app: INestApplication): CorsRoutes {
  const discovery = app.get(DiscoveryService);
  const scanner = app.get(MetadataScanner);
  const routes: CorsRoutes = { open: [], dashboard: [], secret: [] };
  for (const wrapper of discovery.getControllers()) {
    const instance = wrapper.instance as Record<string, unknown> | undefined;
    if (!instance || !wrapper.metatype) continue;
    const prefix = Reflect.getMetadata(PATH_METADATA, wrapper.metatype) as string | undefined;
    for (const name of scanner.getAllMethodNames(Object.getPrototypeOf(instance))) {
      const handler = instance[name] as object;
      const policy = routePolicyOf(handler);
      const list = !policy
        ? null
        : policy.browser
          ? routes.open
          : DASHBOARD_MODES.has(policy.mode)
            ? routes.dashboard
            : policy.mode === 'secret'
              ? routes.secret
              : null;
      if (!list) continue;
      const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number];
      list.push({ method, pattern: toPattern(joinPath(prefix, Reflect.getMetadata(PATH_METADATA, handler) as string)) });
    }
  }
  return routes;
}

const CORS_ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'Idempotency-Key', 'X-Service-User-Hash'];
const CORS_EXPOSED_HEADERS = ['X-Request-Id', 'Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining'];
const DASHBOARD_CORS_ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'Idempotency-Key', 'X-Service-Project'];

const CORS_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

// Set on a cross-origin request to a secret-key route: the failure envelope carries open CORS.
const CORS_ON_FAILURE = 'corsOnFailure';

/** The CORS headers a failure answer adds (exception.filter.ts): only where corsMiddleware asked. */
export function corsHeadersForFailure(res: Response): Record<string, string> {
  if (res.locals?.[CORS_ON_FAILURE] !== true) return {};
  return { 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': CORS_EXPOSED_HEADERS.join(',') };
}

/**
 * CORS is open (any origin) on the public and browser endpoints. Dashboard (JWT) endpoints answer
 * only the origins of DASHBOARD_ORIGINS, by name (never `*`), with credentials allowed so the
 * dashboard may send its session cookie too; with DASHBOARD_ORIGINS unset, or from another origin,
 * they send no CORS headers. Secret-key routes answer a browser's preflight and let it read their
 * refusals (a publishable key on a secret route: 403 KEY_INSUFFICIENT_PERMISSIONS, readable instead
 * of an opaque CORS failure), but never their answers: a page cannot read what a secret key returns.
 */
export function corsMiddleware(app: INestApplication, config: { readonly dashboardOrigins: readonly string[] }): RequestHandler {
  let routes: CorsRoutes | null = null;
  const open = cors({
    origin: '*',
    methods: CORS_METHODS,
    allowedHeaders: CORS_ALLOWED_HEADERS,
    exposedHeaders: CORS_EXPOSED_HEADERS,
    maxAge: 600,
  });
  const dashboardOrigins = new Set(config.dashboardOrigins);
  const dashboard = cors({
    origin: [...dashboardOrigins],
    credentials: true,
    methods: CORS_METHODS,
    allowedHeaders: DASHBOARD_CORS_ALLOWED_HEADERS,
    exposedHeaders: CORS_EXPOSED_HEADERS,
    maxAge: 600,
  });
  const matches = (list: BrowserRoute[], method: string, path: string) =>
    list.some((route) => route.method === method && route.pattern.test(path));
  return (req: Request, res: Response, next: NextFunction) => {
    // Without an Origin header there is no cross-origin request to answer (servers, curl).
    const origin = req.headers.origin;
    if (origin === undefined) return next();
    routes ??= corsRoutes(app);
    const path = req.path;
    const method = req.method === 'OPTIONS' ? String(req.headers['access-control-request-method'] ?? '').toUpperCase() : req.method;
    if (matches(routes.open, method, path)) return open(req, res, next);
    if (matches(routes.secret, method, path)) {
      if (req.method === 'OPTIONS') return open(req, res, next);
      res.locals[CORS_ON_FAILURE] = true;
      return next();
    }
    if (dashboardOrigins.size === 0 || !matches(routes.dashboard, method, path)) return next();
    // The answer depends on the Origin, so shared caches must keep one per origin.
    res.vary('Origin');
    if (dashboardOrigins.has(origin.toLowerCase())) dashboard(req, res, next);
    else next();
  };
}
