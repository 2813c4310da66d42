import { Module } from '@nestjs/common';
import { PublicChangelogModule } from '../public/public-changelog.module';
import { LabelsController } from './labels.controller';
import { LabelsService } from './labels.service';

/** Changelog labels (spec: Label): their CRUD; a change drops the public cache. */
@Module({
  imports: [PublicChangelogModule],
  controllers: [LabelsController],
  providers: [LabelsService],
  exports: [LabelsService],
})
export class ChangelogLabelsModule {}
