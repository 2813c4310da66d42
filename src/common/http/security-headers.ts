import type { RequestHandler } from 'express';
import helmet from 'helmet';

/**
 * Security headers, through helmet, in two sets. JSON answers get the short set an API needs
 * (no sniffing, no framing, HTTPS only, nothing loads): the headers meant for documents would add
 * ~700 bytes to every answer of the busiest routes for nothing. Documents (/docs, the hosted pages,
 * the pages behind email links) get helmet's full set.
 */
const apiSecurityHeaders: RequestHandler = helmet({
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  // Scripts and feeds are embedded on other sites.
  crossOriginResourcePolicy: { policy: 'cross-origin' },
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

/** The API reference is a document; every other path answers JSON unless a route says otherwise (envelope.ts). */
export const securityHeaders: RequestHandler = (req, res, next) =>
  (req.path.startsWith('/docs') ? documentSecurityHeaders : apiSecurityHeaders)(req, res, next);
