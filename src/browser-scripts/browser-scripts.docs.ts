import { applyDecorators } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiProduces, ApiResponse } from '@nestjs/swagger';
import { ApiErrors } from '../common/http/api-docs';
import { patternKind } from '../common/http/path-param.pipe';

/** The OpenAPI description of the script routes: media type, caching headers, conditional requests. */

const IF_NONE_MATCH = { name: 'If-None-Match', required: false, description: 'The ETag of a copy you hold; a match answers 304.' };
const NOT_MODIFIED = { status: 304, description: 'The If-None-Match tag is current: no body.' };

function cachedHeaders(cacheControl: string) {
  return {
    ETag: { description: 'Strong validator of the bytes sent (each encoding has its own).', schema: { type: 'string' } },
    'Cache-Control': { schema: { type: 'string', example: cacheControl } },
    'Access-Control-Allow-Origin': { schema: { type: 'string', example: '*' } },
    'Cross-Origin-Resource-Policy': { schema: { type: 'string', example: 'cross-origin' } },
  };
}

function scriptResponse(what: string, cacheControl: string) {
  return {
    status: 200,
    description: `${what}: a minified script that defines its custom element and reads its settings from its own script tag. gzip when Accept-Encoding allows it. Its last line names its source map.`,
    headers: {
      ...cachedHeaders(cacheControl),
      'Content-Encoding': {
        description: '`gzip` when the request accepts it; absent otherwise.',
        schema: { type: 'string', example: 'gzip' },
      },
    },
    content: { 'text/javascript': { schema: { type: 'string' } } },
  };
}

/** `/v1/<name>.js`: follows upgrades; caches keep it five minutes. */
export function ApiLatestScript(what: string): MethodDecorator {
  const cacheControl = 'public, max-age=300';
  return applyDecorators(
    ApiOperation({
      summary: `${what}, for a script tag on any site. Follows upgrades: Cache-Control: ${cacheControl}; ETag; If-None-Match answers 304.`,
    }),
    ApiHeader(IF_NONE_MATCH),
    ApiProduces('text/javascript'),
    ApiResponse(scriptResponse(what, cacheControl)),
    ApiResponse(NOT_MODIFIED),
  );
}

/** `/v1/<name>.<hash>.js`: one release, never changed; only the current hash exists. */
export function ApiPinnedScript(what: string): MethodDecorator {
  const cacheControl = 'public, max-age=31536000, immutable';
  return applyDecorators(
    ApiOperation({
      summary: `${what} at its content-hashed address (listed by GET /v1/browser-scripts.json): never changes, Cache-Control: ${cacheControl}. Another hash than the current one is NOT_FOUND.`,
    }),
    ApiHeader(IF_NONE_MATCH),
    ApiProduces('text/javascript'),
    ApiResponse(scriptResponse(what, cacheControl)),
    ApiResponse(NOT_MODIFIED),
    ApiErrors('NOT_FOUND'),
  );
}

/** The content hash in a pinned script's address: 16 hex digits; anything else names no release. */
export const SCRIPT_HASH_PARAM = patternKind({
  pattern: /^[0-9a-f]{16}$/,
  example: '0a1b2c3d4e5f6789',
  mismatch: 'No release of this script has this hash.',
  remediation: 'GET /v1/browser-scripts.json lists the current hashed addresses; use <name>.js to follow upgrades.',
  description: 'The content hash of the current release (16 hex digits).',
});

/** If-None-Match and its 304, for a cached JSON answer (its 200 comes from @ApiEnvelope). */
export function ApiConditionalGet(): MethodDecorator {
  return applyDecorators(ApiHeader(IF_NONE_MATCH), ApiResponse(NOT_MODIFIED));
}
