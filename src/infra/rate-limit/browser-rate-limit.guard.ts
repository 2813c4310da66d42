import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { AUTH_POLICY, AuthPolicy } from '../../auth/auth.decorator';
import { callerOf } from '../../common/http/request-context';
import { PLATFORM_LIMITS } from '../../projects/plans';
import { RateLimiter } from './rate-limiter';

const BROWSER_RULE = { bucket: 'browser', limit: PLATFORM_LIMITS.browserCallsPerMinutePerIp, windowMs: 60_000 };

/**
 * Browser calls (spec: 120 requests per minute per IP address): public browser routes, and
 * publishable-key calls to browser routes. A secret key calling the same route is a server, and is
 * not limited per IP. Runs after the auth guard, which establishes the caller.
 */
@Injectable()
export class BrowserRateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly limiter: RateLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const policy = this.reflector.get<AuthPolicy | undefined>(AUTH_POLICY, context.getHandler());
    if (!policy?.browser) return true;
    const req = context.switchToHttp().getRequest<Request>();
    if (callerOf(req).kind === 'secret_key') return true;
    const ip = req.ip ?? req.socket.remoteAddress ?? 'unknown';
    const result = await this.limiter.enforce(BROWSER_RULE, ip, 'Too many requests from this address; the limit is 120 per minute.');
    const res = context.switchToHttp().getResponse<Response>();
    res.setHeader('X-RateLimit-Limit', String(result.limit));
    res.setHeader('X-RateLimit-Remaining', String(result.remaining));
    return true;
  }
}
