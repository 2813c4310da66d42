import type { IncomingMessage } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';
import { requestOrigin } from './request-origin';

/**
 * Security headers, from helmet, in two sets. JSON answers get the short set an API needs (no
 * sniffing, no framing, HTTPS only, nothing loads if a browser opens one): the headers meant for
 * documents would add ~700 bytes to every answer of the busiest routes for nothing. Documents
 * (/docs, the hosted pages, the pages behind email links) get helmet's full set; scripts and feeds
 * are marked embeddable where they are written (envelope.ts).
 */
const apiHelmet = helmet({
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  // Cross-origin reads of JSON go through CORS; a referrer only leaves a document.
  crossOriginResourcePolicy: false,
  referrerPolicy: false,
  crossOriginOpenerPolicy: false,
  originAgentCluster: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
  xFrameOptions: { action: 'deny' },
});

export const documentSecurityHeaders: RequestHandler = helmet({
  crossOriginResourcePolicy: { policy: 'cross-origin' },
  // A self-hosted server may well run on plain http, where upgrading /docs' own scripts to https
  // would break the page.
  contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } },
});

/**
 * The API reference's set: helmet's full set, and "Try it out" may call this server at the origin
 * the page was opened on (its document names that origin first, openapi-document.ts) and at
 * PUBLIC_BASE_URL. 'self' alone is not enough behind a proxy that rewrites the scheme.
 */
function apiReferenceSecurityHeaders(publicBaseUrl: string): RequestHandler {
  return helmet({
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    contentSecurityPolicy: {
      directives: {
        upgradeInsecureRequests: null,
        connectSrc: ["'self'", new URL(publicBaseUrl).origin, (req: IncomingMessage) => requestOrigin(req as Request) ?? "'self'"],
      },
    },
  });
}

/** The headers a helmet configuration sets, read once: they do not depend on the request. */
function headersOf(middleware: RequestHandler): [string, string][] {
  const headers: [string, string][] = [];
  const recorder = { setHeader: (name: string, value: string) => headers.push([name, String(value)]), removeHeader: () => undefined };
  middleware({} as never, recorder as unknown as Response, () => undefined);
  return headers;
}

const API_HEADERS = headersOf(apiHelmet);

/** The API reference is a document; every other path answers JSON unless a route says otherwise (envelope.ts). */
export function securityHeaders(publicBaseUrl: string): RequestHandler {
  const apiReference = apiReferenceSecurityHeaders(publicBaseUrl);
  return (req, res, next) => {
    if (req.path.startsWith('/docs')) return apiReference(req, res, next);
    for (const [name, value] of API_HEADERS) res.setHeader(name, value);
    next();
  };
}
