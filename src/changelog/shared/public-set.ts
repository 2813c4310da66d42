import { contactOfUserExists } from '../../contacts/contacts.service';

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

/**
 * What one widget reader may see (spec: widget identity and audiences): published and unexpired,
 * and either public, or — for a verified user only — signed-in, or a segment whose rule their
 * contact matches (`changelog_segment_matches`, defined in SQL by the engagement migration). With
 * `userId` NULL (anonymous, or a client id) this is exactly the public set. Placeholders: `now`,
 * `projectId`, `userId`; entries are aliased `e`.
 */
export function readerEntryCondition(now: string, projectId: string, userId: string): string {
  // The contacts table is the contacts module's: it writes the EXISTS, this file the segment test.
  const segmentMatches = contactOfUserExists(
    projectId,
    userId,
    (details, consents) => `changelog_segment_matches(e.segment, ${details}, ${consents})`,
  );
  return `e.status = 'published' AND (e.expires_at IS NULL OR e.expires_at > ${now}) AND (e.audience = 'public'
    OR (${userId}::varchar IS NOT NULL AND (e.audience = 'signed_in' OR (e.audience = 'segment' AND ${segmentMatches}))))`;
}
