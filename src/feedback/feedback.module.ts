import { Module } from '@nestjs/common';
import { ContactsModule } from '../contacts/contacts.module';
import { ChangelogEntryCheck, NoPublishedChangelogEntries } from './changelog-entry-check';
import { FeedbackController } from './feedback.controller';
import { FeedbackService } from './feedback.service';

@Module({
  imports: [ContactsModule],
  controllers: [FeedbackController],
  providers: [
    FeedbackService,
    // The changelog module will replace this with its real check (see changelog-entry-check.ts).
    { provide: ChangelogEntryCheck, useClass: NoPublishedChangelogEntries },
  ],
  exports: [FeedbackService],
})
export class FeedbackModule {}
