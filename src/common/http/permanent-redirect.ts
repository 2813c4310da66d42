import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import type { Request } from 'express';

/**
 * Thrown when a route's path parameter names something that moved (a renamed project's old
 * slug): the exception filter answers 308 Permanent Redirect to the same address with the
 * parameter replaced, keeping the rest of the path, the query and (308) the method and body.
 */
export class PermanentRedirect {
  constructor(
    /** The route parameter, as declared in the route path (`project_slug`). */
    readonly param: string,
    readonly value: string,
  ) {}
}

/** The request's own address (path and query) with `param` set to `value`; null when the route has no such parameter. */
export function redirectLocation(req: Request, redirect: PermanentRedirect): string | null {
  const routePath = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof routePath !== 'string') return null;
  const index = routePath.split('/').indexOf(`:${redirect.param}`);
  const url = req.originalUrl;
  const queryStart = url.indexOf('?');
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  const segments = path.split('/');
  if (index < 0 || index >= segments.length) return null;
  segments[index] = encodeURIComponent(redirect.value);
  return segments.join('/') + (queryStart === -1 ? '' : url.slice(queryStart));
}

/** Documents the 308 of a route whose slug may have moved. */
export function ApiSlugRedirect(): MethodDecorator {
  return applyDecorators(
    ApiResponse({
      status: 308,
      description:
        "The project's slug changed: the same address under its current slug (Location). Old links keep working; update them when you can.",
      headers: { Location: { description: 'The address under the current slug.', schema: { type: 'string' } } },
    }),
  );
}
