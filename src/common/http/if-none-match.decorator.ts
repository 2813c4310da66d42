import { type ExecutionContext, createParamDecorator } from '@nestjs/common';
import type { Request } from 'express';

/**
 * The request's If-None-Match header, or undefined. A parameter decorator of our own rather than
 * `@Headers()`, which would document the header as required; routes document it with @ApiHeader.
 */
export const IfNoneMatch = createParamDecorator((_: unknown, context: ExecutionContext): string | undefined => {
  const value = context.switchToHttp().getRequest<Request>().headers['if-none-match'];
  return typeof value === 'string' ? value : undefined;
});
