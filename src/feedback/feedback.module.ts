import { Module } from '@nestjs/common';
import { ContactsModule } from '../contacts/contacts.module';
import { PublishedChangelogEntries } from '../changelog/entries/published-entries.service';
import { ChangelogEntryCheck } from './changelog-entry-check.service';
import { FeedbackController } from './feedback.controller';
import { FeedbackService } from './feedback.service';

@Module({
  imports: [ContactsModule],
  controllers: [FeedbackController],
  providers: [
    FeedbackService,
    // The changelog's check is one query on the caller's transaction, not a ChangelogModule service.
    { provide: ChangelogEntryCheck, useClass: PublishedChangelogEntries },
  ],
  exports: [FeedbackService],
})
export class FeedbackModule {}
