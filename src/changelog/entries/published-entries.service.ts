import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { FeedbackService } from '../../feedback/feedback.service';
import { isPublishedEntry } from './entries.queries';

/** Whether a changelog entry asked for chat posts (webhooks' delivery planner); true when it is not found. */
export { entryNotifiesChat } from './entries.queries';

/**
 * The changelog's answer to feedback's `changelog_entry_id` check, handed to FeedbackService at
 * start: a published entry of the project, any audience, expired or not (feedback about an entry
 * someone read stays linked to it).
 */
@Injectable()
export class PublishedChangelogEntries {
  constructor(feedback: FeedbackService) {
    feedback.checkChangelogEntriesWith((em, projectId, entryId) => this.isPublishedEntry(em, projectId, entryId));
  }

  isPublishedEntry(em: EntityManager, projectId: string, entryId: string): Promise<boolean> {
    return isPublishedEntry(em, projectId, entryId);
  }
}
