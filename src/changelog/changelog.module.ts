import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { EmailTemplatesModule } from '../email-templates/email-templates.module';
import { urlencoded } from 'express';
import { RevenueModule } from '../revenue/revenue.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { DraftsController } from './drafts/drafts.controller';
import { DraftsService } from './drafts/drafts.service';
import { EngagementCaps } from './engagement/engagement-caps';
import { EngagementFlusher } from './engagement/engagement-flusher';
import { EngagementRecorder } from './engagement/engagement-recorder';
import { EngagementRedisBuffer } from './engagement/engagement-redis-buffer';
import { EntriesController } from './entries/entries.controller';
import { EntriesService } from './entries/entries.service';
import { EntryLifecycleService } from './entries/entry-lifecycle.service';
import { EntryPublishing } from './entries/entry-publishing';
import { LabelsController } from './labels/labels.controller';
import { LabelsService } from './labels/labels.service';
import { HostedChangelogController } from './public/hosted-changelog.controller';
import { HostedChangelogService } from './public/hosted-changelog.service';
import { PageInteractionsService } from './public/page-interactions.service';
import { PublicChangelogController } from './public/public-changelog.controller';
import { PublicChangelogCache } from './public/public-changelog.cache';
import { PublicChangelogService } from './public/public-changelog.service';
import { ChangelogReactionSet } from './settings/reaction-set.service';
import { ChangelogSettingsController } from './settings/changelog-settings.controller';
import { ChangelogSettingsService } from './settings/changelog-settings.service';
import { DashboardSubscribersController } from './subscribers/dashboard-subscribers.controller';
import { SubscriberLinksController } from './subscribers/subscriber-links.controller';
import { SubscriberLinksService } from './subscribers/subscriber-links.service';
import { SubscriberMailer } from './subscribers/subscriber-mailer';
import { SubscriberMailings } from './subscribers/subscriber-mailings';
import { SubscribersController } from './subscribers/subscribers.controller';
import { SubscribersService } from './subscribers/subscribers.service';
import { EntryStatsService } from './stats/entry-stats.service';
import { StatsController } from './stats/stats.controller';
import { ReactionsService } from './widget/reactions.service';
import { WidgetController } from './widget/widget.controller';
import { WidgetService } from './widget/widget.service';

// The topics form: label checkboxes; nothing bigger is a form of ours.
const TOPICS_FORM_LIMIT = '16kb';

/**
 * The changelog (spec: Changelog): entries and their lifecycle (entries/), labels, settings, the
 * public surfaces (public/: JSON, hosted page, feeds), subscribers and their emails
 * (subscribers/), drafts from commits (drafts/).
 */
@Module({
  // The bell broadcast of a published entry (notify_in_app); notifications imports nothing of ours.
  imports: [NotificationsModule, EmailTemplatesModule, RevenueModule],
  controllers: [
    EntriesController,
    LabelsController,
    ChangelogSettingsController,
    DraftsController,
    PublicChangelogController,
    HostedChangelogController,
    SubscribersController,
    SubscriberLinksController,
    DashboardSubscribersController,
    WidgetController,
    StatsController,
  ],
  providers: [
    EntryPublishing,
    EntriesService,
    EntryLifecycleService,
    LabelsService,
    ChangelogSettingsService,
    ChangelogReactionSet,
    DraftsService,
    PublicChangelogService,
    PublicChangelogCache,
    HostedChangelogService,
    PageInteractionsService,
    EngagementRecorder,
    EngagementRedisBuffer,
    EngagementFlusher,
    EngagementCaps,
    WidgetService,
    ReactionsService,
    EntryStatsService,
    SubscriberMailings,
    SubscriberMailer,
    SubscribersService,
    SubscriberLinksService,
  ],
  exports: [DraftsService, EntriesService, EntryLifecycleService, EntryStatsService, LabelsService],
})
export class ChangelogModule implements NestModule {
  // The API takes JSON only; the topics page's plain HTML form posts form-encoded, on its one route.
  configure(consumer: MiddlewareConsumer): void {
    consumer
      .apply(urlencoded({ extended: false, limit: TOPICS_FORM_LIMIT, parameterLimit: 200 }))
      .forRoutes({ path: 'v1/changelog/subscribers/preferences', method: RequestMethod.POST });
  }
}
