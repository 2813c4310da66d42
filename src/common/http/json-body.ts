import type { IncomingMessage } from 'node:http';
import { json, type RequestHandler } from 'express';
import { ApiError } from '../errors/api-error';

const JSON_BODY_LIMIT = '1mb';

/**
 * Deepest nesting of arrays and objects a body may have. Our largest documented body nests three
 * levels; the validator, the NUL check and the idempotency fingerprint all recurse, so a body nested
 * thousands deep would overflow the stack (a 500) if it got that far.
 */
const MAX_JSON_DEPTH = 32;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The nesting depth of JSON text, counted on the raw bytes without parsing (so without recursion):
 * brackets inside strings do not count. Works on UTF-8, where no byte of a multi-byte character can
 * be a quote, a backslash or a bracket. Stops counting once `limit` is passed.
 */
export function jsonDepthExceeds(bytes: Uint8Array, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < bytes.length; index += 1) {
    const byte = bytes[index];
    if (inString) {
      if (byte === BACKSLASH) index += 1;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      depth += 1;
      if (depth > limit) return true;
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      depth -= 1;
    }
  }
  return false;
}

const CONTENT_ENCODINGS = 'gzip, deflate or br';

/** body-parser's and zlib's failures in our words: never a 500, never the library's text. */
function bodyError(error: { type?: string; code?: string; status?: number }, contentEncoding: string | undefined): unknown {
  if (error instanceof ApiError) return error;
  switch (error.type) {
    case 'encoding.unsupported':
      return new ApiError('UNSUPPORTED_MEDIA_TYPE', `Content-Encoding "${String(contentEncoding).slice(0, 40)}" is not supported.`, {
        param: 'Content-Encoding',
        remediation: `Send the body uncompressed, or compressed with ${CONTENT_ENCODINGS}.`,
      });
    case 'charset.unsupported':
      return new ApiError('UNSUPPORTED_MEDIA_TYPE', 'The body must be JSON in UTF-8.', { param: 'Content-Type' });
  }
  // A decompression stream failing on garbage surfaces as a 400 without a `type` (zlib's code instead).
  const compressed = contentEncoding !== undefined && contentEncoding.toLowerCase() !== 'identity';
  if (compressed && error.type === undefined && error.status !== undefined && error.status < 500 && error.status !== 413) {
    return new ApiError('VALIDATION_ERROR', `The body could not be decompressed as ${String(contentEncoding).slice(0, 40)}.`, {
      param: 'body',
      remediation: `Compress the body with ${CONTENT_ENCODINGS} as Content-Encoding says, or send it uncompressed.`,
    });
  }
  return error;
}

function verifyDepth(req: IncomingMessage & { rawBody?: Buffer }, _res: unknown, buffer: Buffer, encoding: string | undefined): void {
  // The exact bytes, for signature checks over the body (the payment provider's webhook); Nest's
  // RawBodyRequest convention. A reference to the buffer the parser already holds, not a copy.
  req.rawBody = buffer;
  // UTF-16 and UTF-32 bodies are decoded first; everything else is scanned as bytes.
  const utf8 = !encoding || /^utf-?8$/i.test(encoding);
  const bytes = utf8 ? buffer : Buffer.from(new TextDecoder(encoding).decode(buffer), 'utf8');
  if (jsonDepthExceeds(bytes, MAX_JSON_DEPTH)) {
    throw new ApiError('VALIDATION_ERROR', `The body nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels.`, {
      param: 'body',
      remediation: `Flatten the body: at most ${MAX_JSON_DEPTH} levels of nested objects and arrays.`,
    });
  }
}

/** body-parser options: 1 MB, bounded nesting (checked before parsing). */
const JSON_BODY_OPTIONS = { limit: JSON_BODY_LIMIT, verify: verifyDepth };

/**
 * The JSON body step: body-parser with our options, its failures (compression, unknown encodings)
 * in our words rather than 500s. A request without a body (every GET) passes straight on without
 * entering the parser.
 */
export function jsonBody(): RequestHandler {
  const parse = json(JSON_BODY_OPTIONS);
  return (req, res, next) => {
    const headers = req.headers;
    if (headers['content-length'] === undefined && headers['transfer-encoding'] === undefined) return next();
    parse(req, res, (error?: unknown) => {
      next(error !== null && typeof error === 'object' ? bodyError(error, headers['content-encoding']) : error);
    });
  };
}
