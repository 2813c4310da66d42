import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { DECORATORS } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiError } from '../errors/api-error';

// What the kernel's body step reads on every route (json-body.ts: body-parser's JSON type).
const JSON_MEDIA_TYPE = 'application/json';

function sendsBody(req: Request): boolean {
  const length = req.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return req.headers['transfer-encoding'] !== undefined;
}

// Handlers with a @Body() parameter, by handler: read once from Nest's route metadata.
const readsBody = new WeakMap<object, boolean>();

function handlerReadsBody(context: ExecutionContext): boolean {
  const handler = context.getHandler();
  let reads = readsBody.get(handler);
  if (reads === undefined) {
    const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, context.getClass(), handler.name) ?? {}) as Record<string, unknown>;
    reads = Object.keys(args).some((key) => key.split(':')[0] === String(RouteParamtypes.BODY));
    readsBody.set(handler, reads);
  }
  return reads;
}

function mediaTypeOf(req: Request): string {
  return String(req.headers['content-type'] ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase();
}

/**
 * A body in a media type the route does not read is refused with 415, after authentication and
 * before validation, on the routes that read a body (a @Body() parameter). Every route reads JSON; a route behind an HTML form (the hosted signup page,
 * the subscriber topics form) says with `@ApiConsumes` that it reads a form too, and its module adds
 * the form parser. Any other body (a form posted to a JSON route, `text/plain` from a client that
 * forgot its Content-Type) would otherwise reach validation as an empty object and be refused field
 * by field ("email is required") for a reason the caller cannot see in its own request.
 */
@Injectable()
export class BodyMediaTypeGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const req = context.switchToHttp().getRequest<Request>();
    // A route that reads no body ignores one (an email client's one-click unsubscribe posts a form).
    if (!sendsBody(req) || !handlerReadsBody(context)) return true;
    const type = mediaTypeOf(req);
    if (type === JSON_MEDIA_TYPE) return true;
    const consumes = (Reflect.getMetadata(DECORATORS.API_CONSUMES, context.getHandler()) as string[] | undefined) ?? [];
    if (type !== '' && consumes.includes(type)) return true;
    const got = type ? `Content-Type ${JSON.stringify(type.slice(0, 80))}` : 'no Content-Type';
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE', `This route takes a JSON body; the request sent ${got}.`, {
      param: 'Content-Type',
      remediation: 'Send the body as JSON with the header Content-Type: application/json.',
    });
  }
}
