/**
 * What "public" means for an entry, in one place: published, public audience, not expired at
 * `now`. The publishable-key list, the public JSON, the hosted page, the feeds and view counting
 * all filter with it, so no surface can show what another hides. It is also the predicate of the
 * partial index IX_ENTRIES_PUBLIC (minus the time, which an index cannot hold).
 *
 * `now` is the SQL placeholder of the current time (`$2`, `:now`); entries are aliased `e`.
 */
export function publicEntryCondition(now: string): string {
  return `e.status = 'published' AND e.audience = 'public' AND (e.expires_at IS NULL OR e.expires_at > ${now})`;
}

/** `q` as an ILIKE pattern that matches it literally: `%`, `_` and the escape character escaped. */
export function containsPattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, '\\$&')}%`;
}
