import { Module } from '@nestjs/common';
import { DraftsController } from './drafts/drafts.controller';
import { DraftsService } from './drafts/drafts.service';
import { EntriesController } from './entries/entries.controller';
import { EntriesService } from './entries/entries.service';
import { EntryLifecycleService } from './entries/entry-lifecycle.service';
import { EntryPublishing } from './entries/entry-publishing';
import { LabelsController } from './labels/labels.controller';
import { LabelsService } from './labels/labels.service';
import { ChangelogSettingsController } from './settings/changelog-settings.controller';
import { ChangelogSettingsService } from './settings/changelog-settings.service';
import { SubscriberMailings } from './subscribers/subscriber-mailings';

/**
 * The changelog (spec: Changelog): entries and their lifecycle, labels, settings, the public
 * surfaces (JSON, hosted page, feeds), subscribers and their emails, drafts from commits.
 */
@Module({
  imports: [],
  controllers: [EntriesController, LabelsController, ChangelogSettingsController, DraftsController],
  providers: [
    SubscriberMailings,
    EntryPublishing,
    EntriesService,
    EntryLifecycleService,
    LabelsService,
    ChangelogSettingsService,
    DraftsService,
  ],
  exports: [DraftsService],
})
export class ChangelogModule {}
