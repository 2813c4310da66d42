import { type ExecutionContext, createParamDecorator } from '@nestjs/common';
import type { Request } from 'express';

const CUSTOM_DOMAIN_HOST = Symbol('customDomainHost');

type MarkedRequest = Request & { [CUSTOM_DOMAIN_HOST]?: string };

/** Called by the custom-domain gate: this request arrived on a project's verified custom domain. */
export function markCustomDomainHost(req: Request, hostname: string): void {
  (req as MarkedRequest)[CUSTOM_DOMAIN_HOST] = hostname;
}

/**
 * The verified custom domain this request arrived on, or null on our own hosts: hosted pages and
 * feeds write their absolute links (canonical, feed self links) on the address they are served at.
 */
export const CustomDomainHost = createParamDecorator(
  (_: unknown, context: ExecutionContext): string | null => context.switchToHttp().getRequest<MarkedRequest>()[CUSTOM_DOMAIN_HOST] ?? null,
);
