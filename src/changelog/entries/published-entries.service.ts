import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ChangelogEntryCheck } from '../../feedback/changelog-entry-check.service';
import { isPublishedEntry } from './entries.queries';

/** Whether a changelog entry asked for chat posts (webhooks' delivery planner); true when it is not found. */
export { entryNotifiesChat } from './entries.queries';

/**
 * The changelog's answer to feedback's ChangelogEntryCheck port: a published entry of the project,
 * any audience, expired or not (feedback about an entry someone read stays linked to it). A plain
 * class with one query and no changelog service, so feedback.module can provide it without
 * importing ChangelogModule (and the changelog's stats can still use FeedbackService: no cycle).
 */
@Injectable()
export class PublishedChangelogEntries extends ChangelogEntryCheck {
  isPublishedEntry(em: EntityManager, projectId: string, entryId: string): Promise<boolean> {
    return isPublishedEntry(em, projectId, entryId);
  }
}
