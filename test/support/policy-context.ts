import type { ExecutionContext } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { RoutePolicy } from '../../src/common/http/route-policy';
import { PolicyContext } from '../../src/auth/policy-steps/policy-step';
import type { ProjectRef } from '../../src/projects/project-ref';

/** A request as the route-policy steps read it, with the response headers they set kept in `headers`. */
export interface FakeExchange {
  req: Request;
  res: Response;
  headers: Record<string, string>;
}

export function fakeExchange(
  request: { headers?: Record<string, string>; query?: object; body?: unknown; ip?: string } = {},
): FakeExchange {
  const headers: Record<string, string> = {};
  const res = {
    locals: {},
    setHeader(name: string, value: string) {
      headers[name] = value;
      return res;
    },
    getHeader: (name: string) => headers[name],
  } as unknown as Response;
  const req = {
    method: 'POST',
    originalUrl: '/v1/things',
    headers: request.headers ?? {},
    query: request.query ?? {},
    body: request.body,
    ip: request.ip ?? '203.0.113.9',
    socket: {},
    res,
    app: { get: () => undefined },
  } as unknown as Request;
  return { req, res, headers };
}

export function policyOf(mode: RoutePolicy['mode'], options: Partial<Omit<RoutePolicy, 'mode'>> = {}): RoutePolicy {
  return { mode, browser: options.browser ?? mode === 'publishable', endUser: options.endUser ?? null };
}

/** A pass of the guard over `exchange` for a route with `policy` (and `handler`, for metadata). */
export function policyContext(exchange: FakeExchange, policy: RoutePolicy, handler: object = () => undefined): PolicyContext {
  return new PolicyContext({} as ExecutionContext, exchange.req, exchange.res, handler, policy);
}

export function projectRef(overrides: Partial<ProjectRef> = {}): ProjectRef {
  return {
    id: 'prj_1',
    accountId: 'acc_1',
    slug: 'acme',
    name: 'Acme',
    plan: 'free',
    settings: { require_user_hash: true },
    createdAt: new Date('2026-01-01T00:00:00Z'),
    mode: 'live',
    liveProjectId: null,
    ...overrides,
  } as ProjectRef;
}
