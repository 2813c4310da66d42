import { Module } from '@nestjs/common';
import { ChangelogEntriesModule } from '../entries/entries.module';
import { DraftsController } from './drafts.controller';
import { DraftsService } from './drafts.service';

/** Draft entries from commit messages (spec: Endpoints → Changelog → Drafts), saved as entries. */
@Module({
  imports: [ChangelogEntriesModule],
  controllers: [DraftsController],
  providers: [DraftsService],
  exports: [DraftsService],
})
export class ChangelogDraftsModule {}
