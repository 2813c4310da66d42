import { HttpException, Logger } from '@nestjs/common';
import { SealedValueUnreadable } from '../crypto/secret-box';
import { ApiError } from '../errors/api-error';
import type { ErrorCode } from '../errors/error-catalog';
import type { WireAnswer } from './request-context';
import { redactError } from '../logging/redact-error';
import { OUTAGE_RETRY_AFTER_SECONDS, busyRetryAfter, isBackendOutage } from './backend-outage';

interface ErrorBody {
  code: ErrorCode;
  message: string;
  remediation: string;
  param?: string;
  request_id: string;
}

interface ErrorResponse {
  status: number;
  headers: Record<string, string>;
  body: { data: null; error: ErrorBody };
}

/** A response recorded earlier (an idempotent replay), written back byte for byte. */
export class StoredResponse {
  constructor(
    readonly answer: WireAnswer,
    /** Said only on the replay (Idempotent-Replayed). */
    readonly extraHeaders: Record<string, string> = {},
  ) {}
}

interface BodyParserError {
  type?: string;
  status?: number;
  message?: string;
  /** entity.too.large: the limit of the parser that refused, in bytes (1 MB for JSON, less for forms). */
  limit?: number;
}

function sizeInWords(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${Math.round(bytes / 1024)} KB`;
}

const logger = new Logger('Errors');

/** body-parser and raw-body errors carry a `type`; they happen before routing. */
function fromBodyParser(error: BodyParserError): ApiError | null {
  switch (error.type) {
    case 'entity.parse.failed':
      return new ApiError('VALIDATION_ERROR', `The body is not valid JSON: ${error.message}`, { param: 'body' });
    case 'entity.too.large': {
      const limit = sizeInWords(error.limit ?? 1024 * 1024);
      return new ApiError('PAYLOAD_TOO_LARGE', `The body is larger than ${limit}.`, {
        param: 'body',
        remediation: `Send a body of at most ${limit}.`,
      });
    }
    case 'encoding.unsupported':
    case 'charset.unsupported':
      // The JSON parser's own are translated where it is mounted (json-body.ts); this is every other parser's.
      return new ApiError('UNSUPPORTED_MEDIA_TYPE', 'Send the body uncompressed, in UTF-8.', { param: 'body' });
    case 'request.aborted':
    case 'request.size.invalid':
      return new ApiError('VALIDATION_ERROR', 'The body was incomplete.', { param: 'body' });
    default:
      return null;
  }
}

const UNKNOWN_ROUTE_REMEDIATION = 'Check the method and the path against the API reference at /docs.';

/** The answer to a path no route serves; also for a route that must look as if it did not exist. */
export function unknownRouteError(): ApiError {
  return new ApiError('NOT_FOUND', 'No such endpoint.', { remediation: UNKNOWN_ROUTE_REMEDIATION });
}

function fromHttpException(error: HttpException): ApiError {
  const status = error.getStatus();
  if (status === 404) return unknownRouteError();
  // Nest turns body-parser's SyntaxError (malformed JSON) into a 400 BadRequestException.
  if (status === 400 && /JSON/i.test(error.message)) {
    return new ApiError('VALIDATION_ERROR', `The body is not valid JSON: ${error.message}`, {
      param: 'body',
      remediation: 'Send a JSON object with Content-Type: application/json.',
    });
  }
  if (status === 413) return new ApiError('PAYLOAD_TOO_LARGE', 'The body is too large.', { param: 'body' });
  if (status === 429) return new ApiError('RATE_LIMITED', 'Too many requests.');
  if (status >= 400 && status < 500) return new ApiError('VALIDATION_ERROR', error.message);
  return new ApiError('INTERNAL_ERROR', 'Something went wrong on our side.', { cause: error });
}

const UNREADABLE_MESSAGE = "A secret stored for this project cannot be decrypted with the server's ENCRYPTION_KEY.";

/**
 * Maps any thrown value to an ApiError; a backing service that is down or silent becomes 503
 * SERVICE_UNAVAILABLE with Retry-After; a stored secret that ENCRYPTION_KEY cannot open, 503
 * SEALED_VALUE_UNREADABLE; other unknown errors become INTERNAL_ERROR, logged once with `logContext`
 * (a request's `request_id`, an MCP tool call's tool and project). REST and MCP answer alike.
 */
export function toApiError(error: unknown, logContext: Record<string, unknown>): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof HttpException) return fromHttpException(error);
  const parserError = error && typeof error === 'object' ? fromBodyParser(error as BodyParserError) : null;
  if (parserError) return parserError;
  const busyFor = busyRetryAfter(error);
  if (busyFor !== null) {
    // Part of a burst refused on purpose: the pool logs those together, not one line each.
    return new ApiError('SERVICE_UNAVAILABLE', 'The database is busy: more requests are waiting for it than it can serve in time.', {
      cause: error,
      remediation: 'Retry after the Retry-After delay; the service refuses part of a burst at once so that it answers the rest quickly.',
      headers: { 'Retry-After': String(busyFor) },
    });
  }
  if (isBackendOutage(error)) {
    // An outage, not a bug: one warning per request, without the stack; the client may retry.
    logger.warn({ err: redactError(error), ...logContext }, 'Backing service unavailable');
    return new ApiError('SERVICE_UNAVAILABLE', 'A backing service (database or Redis) did not answer in time.', {
      cause: error,
      headers: { 'Retry-After': String(OUTAGE_RETRY_AFTER_SECONDS) },
    });
  }
  if (error instanceof SealedValueUnreadable) {
    // The operator's to fix (ENCRYPTION_KEY), not a bug: one error line, without the stack or the value.
    logger.error({ ...logContext, reason: error.message }, 'Stored secret unreadable with ENCRYPTION_KEY');
    return new ApiError('SEALED_VALUE_UNREADABLE', UNREADABLE_MESSAGE, { cause: error });
  }
  // Redacted: a failed query's parameters (emails, tokens) never reach the log.
  logger.error({ err: redactError(error), ...logContext }, 'Unhandled error');
  return new ApiError('INTERNAL_ERROR', 'Something went wrong on our side.', { cause: error });
}

/** The one place the failure envelope is built. */
export function toErrorResponse(error: unknown, requestId: string): ErrorResponse {
  const apiError = toApiError(error, { request_id: requestId });
  const body: ErrorBody = {
    code: apiError.code,
    message: apiError.message,
    remediation: apiError.remediation,
    request_id: requestId,
  };
  if (apiError.param !== undefined) body.param = apiError.param;
  return { status: apiError.status, headers: apiError.headers, body: { data: null, error: body } };
}
