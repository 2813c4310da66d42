import { parseRetryAfter } from './retry-after';

/**
 * The scripts' one way to call the API: the publishable key as a bearer token, the end user's
 * `user_hash` in the X-Service-User-Hash header (kept out of URLs and logs), JSON in and out, and
 * the envelope unwrapped: `{data, meta}` on success, an ApiFailure otherwise.
 */

export interface ApiClientOptions {
  /** The API's base URL without a trailing slash (LaunchScript.api). */
  base: string;
  /** The project's publishable key (`data-key`). */
  key: string;
  /** The end user's `user_hash` (`data-user-hash`), sent with every call when set. */
  userHash?: string | null;
}

export type Query = Record<string, string | number | boolean | null | undefined>;

export interface ApiSuccess<T> {
  data: T;
  /** The envelope's `meta` (`poll_interval_seconds`, `next_cursor`…), or an empty object. */
  meta: Record<string, unknown>;
}

/** A call that did not succeed: the error envelope's code and message, or NETWORK_ERROR (status 0). */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** From Retry-After (429, 503): how long to wait before the next call, in ms; null without one. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
  }
}

export interface SendOptions {
  /** The call outlives the page (a click on a link that leaves it): fetch's `keepalive`. */
  keepalive?: boolean;
}

export interface ApiClient {
  get<T>(path: string, query?: Query, signal?: AbortSignal): Promise<ApiSuccess<T>>;
  send<T>(
    method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    body?: unknown,
    query?: Query,
    options?: SendOptions,
  ): Promise<ApiSuccess<T>>;
}

interface Envelope {
  data?: unknown;
  error?: { code?: string; message?: string } | null;
  meta?: Record<string, unknown>;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const request = async <T>(method: string, path: string, query?: Query, body?: unknown, signal?: AbortSignal, keepalive?: boolean) => {
    const url = new URL(options.base + path);
    for (const [name, value] of Object.entries(query ?? {})) if (value != null) url.searchParams.set(name, String(value));
    const headers: Record<string, string> = { Authorization: `Bearer ${options.key}` };
    if (options.userHash) headers['X-Service-User-Hash'] = options.userHash;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    let response: Response;
    try {
      const init: RequestInit = { method, headers, signal, credentials: 'omit', keepalive };
      if (body !== undefined) init.body = JSON.stringify(body);
      response = await fetch(url, init);
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new ApiFailure(0, 'NETWORK_ERROR', 'The service could not be reached.');
    }
    const envelope = (await response.json().catch(() => null)) as Envelope | null;
    if (response.ok && envelope && !envelope.error) return { data: envelope.data as T, meta: envelope.meta ?? {} };
    throw new ApiFailure(
      response.status,
      envelope?.error?.code ?? `HTTP_${response.status}`,
      envelope?.error?.message ?? `The service answered ${response.status}.`,
      parseRetryAfter(response.headers.get('Retry-After'), Date.now()),
    );
  };
  return {
    get: (path, query, signal) => request('GET', path, query, undefined, signal),
    send: (method, path, body, query, options) => request(method, path, query, body, undefined, options?.keepalive),
  };
}
