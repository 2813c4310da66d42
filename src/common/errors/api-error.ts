import { ERRORS, ErrorCode } from './error-catalog';

interface ApiErrorOptions {
  /** The offending field: a body property (dotted for nested), a query parameter or a header name. */
  param?: string;
  /** Replaces the catalog's default remediation when the situation allows a more precise one. */
  remediation?: string;
  /** Extra response headers, such as Retry-After. */
  headers?: Record<string, string>;
  cause?: unknown;
}

/** The only error type features throw. The exception filter turns it into the failure envelope. */
export class ApiError extends Error {
  readonly status: number;
  readonly param?: string;
  readonly remediation: string;
  readonly headers: Record<string, string>;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: ApiErrorOptions = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'ApiError';
    this.status = ERRORS[code].status;
    this.param = options.param;
    this.remediation = options.remediation ?? ERRORS[code].remediation;
    this.headers = options.headers ?? {};
  }
}
