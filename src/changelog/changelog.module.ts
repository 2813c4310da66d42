import { Module } from '@nestjs/common';
import { DraftsController } from './drafts/drafts.controller';
import { DraftsService } from './drafts/drafts.service';
import { SubscriberMailings } from './subscribers/subscriber-mailings';

/**
 * The changelog (spec: Changelog): entries and their lifecycle, labels, settings, the public
 * surfaces (JSON, hosted page, feeds), subscribers and their emails, drafts from commits.
 */
@Module({
  imports: [],
  controllers: [DraftsController],
  providers: [SubscriberMailings, DraftsService],
  exports: [DraftsService],
})
export class ChangelogModule {}
