import { EntityManager } from 'typeorm';

/**
 * Answers whether an id is one of the project's published changelog entries (spec: Feedback input,
 * `changelog_entry_id`: any other id is dropped and the feedback kept).
 *
 * A port owned by the feedback module; the changelog provides it (PublishedChangelogEntries in
 * changelog/entries/published-entries.service.ts, bound in feedback.module.ts). It takes the
 * caller's `em` so it runs inside the feedback transaction (a second connection would deadlock on
 * the embedded database), and needs no changelog service, so no import cycle with `countForEntries`.
 */
export abstract class ChangelogEntryCheck {
  abstract isPublishedEntry(em: EntityManager, projectId: string, entryId: string): Promise<boolean>;
}
