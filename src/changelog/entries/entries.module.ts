import { Module } from '@nestjs/common';
import { FeedbackModule } from '../../feedback/feedback.module';
import { NotificationsModule } from '../../notifications/notifications.module';
import { PublicChangelogModule } from '../public/public-changelog.module';
import { ChangelogSubscribersModule } from '../subscribers/subscribers.module';
import { EntriesController } from './entries.controller';
import { EntriesService } from './entries.service';
import { EntryLifecycleService } from './entry-lifecycle.service';
import { EntryPublishing } from './entry-publishing.service';
import { PublishedChangelogEntries } from './published-entries.service';
import { ProjectsModule } from '../../projects/projects.module';
import { EventsModule } from '../../events/events.module';
import { EntryPublicationProcessor } from './entry-publication.processor';

/**
 * Changelog entries and their lifecycle (spec: Changelog entry, States and transitions → Changelog
 * entry): writes, scheduling and publishing. A publication hands the entry to the subscribers'
 * mailing and to the bell (notify_in_app) and drops the public cache. Feedback's check of
 * `changelog_entry_id` is handed to FeedbackService from here (PublishedChangelogEntries).
 */
@Module({
  imports: [NotificationsModule, FeedbackModule, PublicChangelogModule, ChangelogSubscribersModule, ProjectsModule, EventsModule],
  controllers: [EntriesController],
  providers: [EntryPublicationProcessor, EntryPublishing, EntriesService, EntryLifecycleService, PublishedChangelogEntries],
  exports: [EntriesService, EntryLifecycleService],
})
export class ChangelogEntriesModule {}
