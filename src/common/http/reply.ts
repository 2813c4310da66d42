/**
 * What a handler returns when the envelope needs more than `data`. The envelope interceptor never
 * guesses from a payload's shape: plain values become `{data, error: null}`, these classes say
 * explicitly what goes into `meta`. (Statuses are fixed per route with @HttpCode, so they are documented.)
 */
export class WithMeta<T> {
  constructor(
    readonly data: T,
    readonly meta: Record<string, unknown>,
  ) {}
}

/** A page of a cursor-paginated list: `{data: items, error: null, meta: {next_cursor, has_more}}`. */
export class Paged<T> {
  constructor(
    readonly items: T[],
    readonly nextCursor: string | null,
    readonly extraMeta: Record<string, unknown> = {},
  ) {}
}
