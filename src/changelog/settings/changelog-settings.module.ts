import { Module } from '@nestjs/common';
import { NotificationsModule } from '../../notifications/notifications.module';
import { ChangelogSettingsController } from './changelog-settings.controller';
import { ChangelogSettingsService } from './changelog-settings.service';
import { ChangelogReactionSet } from './reaction-set.service';
import { ProjectsModule } from '../../projects/projects.module';

/**
 * The project's changelog settings (spec: Reaction set): today its reaction set, whose reader is
 * handed to notifications (NotificationReactionSets).
 */
@Module({
  imports: [NotificationsModule, ProjectsModule],
  controllers: [ChangelogSettingsController],
  providers: [ChangelogSettingsService, ChangelogReactionSet],
  exports: [ChangelogReactionSet],
})
export class ChangelogSettingsModule {}
