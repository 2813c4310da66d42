import { Module } from '@nestjs/common';
import { ChangelogEngagementModule } from '../engagement/engagement.module';
import { ChangelogSettingsModule } from '../settings/changelog-settings.module';
import { ReactionsService } from './reactions.service';
import { WidgetController } from './widget.controller';
import { WidgetService } from './widget.service';
import { ErasureRegistryModule } from '../../infra/erasure/erasure-registry.module';

/**
 * The in-app changelog widget (spec: Widget endpoints): what one reader may see, unseen counts,
 * announcements and reactions (from the project's reaction set); views and clicks go to engagement.
 */
@Module({
  imports: [ChangelogEngagementModule, ChangelogSettingsModule, ErasureRegistryModule],
  controllers: [WidgetController],
  providers: [WidgetService, ReactionsService],
})
export class ChangelogWidgetModule {}
