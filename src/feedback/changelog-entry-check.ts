import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

/**
 * Answers whether an id is one of the project's published changelog entries (spec: Feedback input,
 * `changelog_entry_id`: any other id is dropped and the feedback kept).
 *
 * A port owned by the feedback module. The changelog module does not exist yet, so the default
 * below answers "not published" and every `changelog_entry_id` is dropped for now. The changelog
 * module will provide the real check (a lookup of a published, unexpired entry of the project) and
 * replace the `ChangelogEntryCheck` provider in feedback.module.ts with it. It takes the caller's
 * `em` so it runs inside the feedback transaction (a second connection would deadlock on the
 * embedded database), and needs no changelog service, so no import cycle with `countForEntries`.
 */
export abstract class ChangelogEntryCheck {
  abstract isPublishedEntry(em: EntityManager, projectId: string, entryId: string): Promise<boolean>;
}

/** Until the changelog module exists: no entry is published, so every id is dropped. */
@Injectable()
export class NoPublishedChangelogEntries extends ChangelogEntryCheck {
  isPublishedEntry(): Promise<boolean> {
    return Promise.resolve(false);
  }
}
