import { applyDecorators, CanActivate, ExecutionContext, Inject, Injectable, UseGuards } from '@nestjs/common';
import type { IncomingHttpHeaders } from 'node:http';
import ipaddr from 'ipaddr.js';
import { unknownRouteError } from '../common/http/error-response';
import { APP_CONFIG, type AppConfig } from '../config/app-config';

/** Headers a reverse proxy adds when it passes a request on. */
const PROXY_HEADERS = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-real-ip'] as const;

/** A loopback address (IPv4, IPv6, or IPv4 mapped into IPv6), classified as the webhook URL rules do. */
export function isLoopback(address: string | undefined): boolean {
  if (!address || !ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'loopback';
}

/** The name in a Host header, without port or IPv6 brackets, lower-cased; null when it is no host. */
export function hostnameOf(host: string | undefined): string | null {
  if (!host) return null;
  try {
    return new URL(`http://${host}`).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return null;
  }
}

export interface PeerRequest {
  socket: { remoteAddress?: string };
  headers: IncomingHttpHeaders;
}

/**
 * Whether a request comes straight from a person on this machine: the TCP peer is a loopback
 * address (a header cannot make a remote caller look local), no proxy passed it on (a reverse
 * proxy on this machine is a loopback peer too, and would expose the page to whoever it serves),
 * and the Host names this machine or our own host. The last rule turns away a web page that
 * rebinds its own DNS name to 127.0.0.1 to read the answer, and every custom domain.
 */
export function isLocalRequest(req: PeerRequest, ownHosts: readonly string[]): boolean {
  if (!isLoopback(req.socket.remoteAddress)) return false;
  if (PROXY_HEADERS.some((name) => req.headers[name] !== undefined)) return false;
  const host = hostnameOf(req.headers.host);
  return host !== null && (host === 'localhost' || isLoopback(host) || ownHosts.includes(host));
}

/** Answers a request that is not local as if the route did not exist (404 NOT_FOUND, "No such endpoint."). */
@Injectable()
class DevelopmentAidGuard implements CanActivate {
  private readonly ownHosts: string[];

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.ownHosts = [config.publicBaseUrl, config.cdnUrl].map((url) => hostnameOf(new URL(url).host) ?? '');
  }

  canActivate(context: ExecutionContext): boolean {
    if (isLocalRequest(context.switchToHttp().getRequest<PeerRequest>(), this.ownHosts)) return true;
    throw unknownRouteError();
  }
}

/**
 * Marks a route as a development aid (GET /dev/mail, and any later one such as /demo): it answers
 * only local requests (isLocalRequest). Whether the route exists at all is decided where its
 * module registers it (DevModule: DEV_MAIL).
 */
export const DevelopmentAid = (): MethodDecorator & ClassDecorator => applyDecorators(UseGuards(DevelopmentAidGuard));
