import { BoundedMap } from '../cache/bounded-map';

/** Queries remembered in all (every DTO class together): at most a few megabytes. */
const MAX_QUERIES = 20_000;
/** A longer query is validated each time: it is not what a poll sends, and it would weigh more. */
const MAX_QUERY_KEY_LENGTH = 512;

type Dto = Record<string, unknown>;

/** True when every property is a primitive, so a shallow copy shares nothing a handler could change. */
function isFlat(dto: Dto): boolean {
  for (const key of Object.keys(dto)) {
    const value = dto[key];
    if (value !== null && typeof value === 'object') return false;
    if (typeof value === 'function') return false;
  }
  return true;
}

function copyOf(dto: Dto): Dto {
  return Object.assign(Object.create(Object.getPrototypeOf(dto) as object) as Dto, dto);
}

/**
 * The DTOs that queries validated to, kept by DTO class and query as sent. A browser polls with the
 * same query every 15-60 s (the bell's `user_id` and `user_hash`, the widget's reader): validating
 * it again would answer the same, since every rule of a query DTO reads only the query (no clock,
 * no configuration, no database; a rule that did would have to be a guard or a service step).
 * Only answers that passed are kept, and only flat ones (strings, numbers, booleans), handed out
 * as a fresh copy each time, so a handler that changes its DTO changes its own. A query that
 * failed is validated again each time, so its refusal is computed as before. Bounded: a caller
 * sending endless new queries only pushes out the oldest, which are then validated again.
 */
export class ValidatedQueries {
  private readonly dtos = new BoundedMap<string, Dto>(MAX_QUERIES);
  private readonly classIds = new WeakMap<object, number>();
  private nextClassId = 0;

  /** The key of `query` for the DTO class, or null when it is not kept (not a plain object, or too long). */
  keyOf(dtoClass: object, query: unknown): string | null {
    if (query === null || typeof query !== 'object' || Array.isArray(query)) return null;
    let classId = this.classIds.get(dtoClass);
    if (classId === undefined) this.classIds.set(dtoClass, (classId = this.nextClassId += 1));
    const key = `${classId}:${JSON.stringify(query)}`;
    return key.length <= MAX_QUERY_KEY_LENGTH ? key : null;
  }

  /** A fresh copy of the DTO the query validated to before, or undefined. */
  recall(key: string): Dto | undefined {
    const dto = this.dtos.get(key);
    return dto === undefined ? undefined : copyOf(dto);
  }

  /** Keeps a copy of a DTO that passed validation, when it is flat. */
  keep(key: string, dto: unknown): void {
    if (dto !== null && typeof dto === 'object' && isFlat(dto as Dto)) this.dtos.set(key, copyOf(dto as Dto));
  }
}
