import { Module } from '@nestjs/common';
import { ContactsModule } from '../contacts/contacts.module';
import { FeedbackController } from './feedback.controller';
import { FeedbackService } from './feedback.service';
import { EventsModule } from '../events/events.module';
import { ErasureRegistryModule } from '../infra/erasure/erasure-registry.module';

/**
 * Feedback (spec: Feedback). Whether a `changelog_entry_id` is a published entry is the
 * changelog's answer, handed in at start (FeedbackService.checkChangelogEntriesWith): feedback/
 * imports nothing of the changelog.
 */
@Module({
  imports: [ContactsModule, EventsModule, ErasureRegistryModule],
  controllers: [FeedbackController],
  providers: [FeedbackService],
  exports: [FeedbackService],
})
export class FeedbackModule {}
