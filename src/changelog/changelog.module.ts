import { Module } from '@nestjs/common';
import { ChangelogDraftsModule } from './drafts/drafts.module';
import { ChangelogEntriesModule } from './entries/entries.module';
import { ChangelogLabelsModule } from './labels/labels.module';
import { PublicChangelogModule } from './public/public-changelog.module';
import { ChangelogSettingsModule } from './settings/changelog-settings.module';
import { ChangelogStatsModule } from './stats/stats.module';
import { ChangelogSubscribersModule } from './subscribers/subscribers.module';
import { ChangelogWidgetModule } from './widget/widget.module';

/**
 * The changelog (spec: Changelog), one module per sub-area: entries and their lifecycle, labels,
 * settings, drafts from commits, the public surfaces (JSON, hosted pages, feeds), subscribers and
 * their emails, the widget, stats; engagement (views, clicks) sits below the public surfaces and
 * the widget. Shared pieces are in shared/ and entities/, which import no sub-module. This module
 * only gathers them, so the application and MCP import one changelog.
 */
@Module({
  imports: [
    ChangelogEntriesModule,
    ChangelogLabelsModule,
    ChangelogSettingsModule,
    ChangelogDraftsModule,
    PublicChangelogModule,
    ChangelogSubscribersModule,
    ChangelogWidgetModule,
    ChangelogStatsModule,
  ],
  exports: [ChangelogEntriesModule, ChangelogLabelsModule, ChangelogDraftsModule, ChangelogStatsModule],
})
export class ChangelogModule {}
