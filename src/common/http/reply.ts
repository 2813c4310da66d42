/**
 * What a handler returns when the envelope needs more than `data` (see envelope.ts): plain values
 * become `{data, error: null}`, these classes say explicitly what goes into `meta`. (Statuses are
 * fixed per route with @HttpCode, so they are documented; a route whose outcome decides between two
 * documented statuses returns `WithStatus`.)
 */
export class WithMeta<T> {
  constructor(
    readonly data: T,
    readonly meta: Record<string, unknown>,
  ) {}
}

/** A body written as it is, without the envelope: an HTML page, a feed, a script. */
export class RawReply {
  constructor(
    readonly body: string | Buffer,
    readonly contentType: string,
    /** Overrides the route's status (a page that says "not found" is still a page). */
    readonly status?: number,
    /** Set last, over the kernel's own (a page's stricter Content-Security-Policy). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {}

  private encoded: Buffer | null | undefined;

  /**
   * The body's bytes, encoded once (a cached page or feed is sent many times), when the content
   * type names its charset as UTF-8; null otherwise, and Express chooses the charset as it always did.
   */
  get bytes(): Buffer | null {
    if (this.encoded === undefined) {
      const utf8 = /;\s*charset=utf-8\s*$/i.test(this.contentType);
      this.encoded = !utf8 ? null : typeof this.body === 'string' ? Buffer.from(this.body, 'utf8') : this.body;
    }
    return this.encoded;
  }
}

/** A page of a cursor-paginated list: `{data: items, error: null, meta: {next_cursor, has_more}}`. */
export class Paged<T> {
  constructor(
    readonly items: T[],
    readonly nextCursor: string | null,
    readonly extraMeta: Record<string, unknown> = {},
  ) {}
}

/**
 * `{data, error: null}` with a status chosen by the outcome, for a route that documents both (a
 * create that can also run as a dry run: 201 created, 200 previewed).
 */
export class WithStatus<T> {
  constructor(
    readonly data: T,
    readonly status: number,
  ) {}
}

/**
 * An answer whose version the service knows, sent as its ETag (`tag`). `body` null: the caller
 * already holds that version (its If-None-Match named it), so the answer is 304 and the body is
 * never built. With a body, a conditional request naming the tag is still answered 304.
 */
export class Versioned<T> {
  constructor(
    readonly tag: string,
    readonly body: WithMeta<T> | null,
  ) {}
}
