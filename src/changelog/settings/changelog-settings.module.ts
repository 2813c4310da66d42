import { Module } from '@nestjs/common';
import { ChangelogSettingsController } from './changelog-settings.controller';
import { ChangelogSettingsService } from './changelog-settings.service';
import { ChangelogReactionSet } from './reaction-set.service';

/** The project's changelog settings (spec: Reaction set): today its reaction set. */
@Module({
  controllers: [ChangelogSettingsController],
  providers: [ChangelogSettingsService, ChangelogReactionSet],
  exports: [ChangelogReactionSet],
})
export class ChangelogSettingsModule {}
