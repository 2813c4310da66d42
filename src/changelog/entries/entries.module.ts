import { Module } from '@nestjs/common';
import { NotificationsModule } from '../../notifications/notifications.module';
import { PublicChangelogModule } from '../public/public-changelog.module';
import { ChangelogSubscribersModule } from '../subscribers/subscribers.module';
import { EntriesController } from './entries.controller';
import { EntriesService } from './entries.service';
import { EntryLifecycleService } from './entry-lifecycle.service';
import { EntryPublishing } from './entry-publishing';

/**
 * Changelog entries and their lifecycle (spec: Changelog entry, States and transitions → Changelog
 * entry): writes, scheduling and publishing. A publication hands the entry to the subscribers'
 * mailing and to the bell (notify_in_app) and drops the public cache.
 */
@Module({
  imports: [NotificationsModule, PublicChangelogModule, ChangelogSubscribersModule],
  controllers: [EntriesController],
  providers: [EntryPublishing, EntriesService, EntryLifecycleService],
  exports: [EntriesService, EntryLifecycleService],
})
export class ChangelogEntriesModule {}
