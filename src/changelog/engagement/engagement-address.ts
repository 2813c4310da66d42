import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { clientAddressKey, clientIp } from '../../common/http/client-address';

/**
 * The key engagement caps count a request under: the client address as TRUST_PROXY reads it, an
 * IPv6 address by its /64 (one subscriber holds the whole /64).
 */
export const EngagementAddress = createParamDecorator((_: unknown, context: ExecutionContext): string =>
  clientAddressKey(clientIp(context.switchToHttp().getRequest<Request>())),
);
