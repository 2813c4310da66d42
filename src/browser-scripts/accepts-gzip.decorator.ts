import { type ExecutionContext, createParamDecorator } from '@nestjs/common';
import type { Request } from 'express';

/** True when the request's Accept-Encoding takes gzip over identity (Express's negotiation, q-values included). */
export const AcceptsGzip = createParamDecorator(
  (_data: unknown, context: ExecutionContext): boolean =>
    context.switchToHttp().getRequest<Request>().acceptsEncodings('gzip', 'identity') === 'gzip',
);
