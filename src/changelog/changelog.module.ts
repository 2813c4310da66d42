import { Module } from '@nestjs/common';
import { SubscriberMailings } from './subscribers/subscriber-mailings';

/**
 * The changelog (spec: Changelog): entries and their lifecycle, labels, settings, the public
 * surfaces (JSON, hosted page, feeds), subscribers and their emails, drafts from commits.
 */
@Module({
  imports: [],
  controllers: [],
  providers: [SubscriberMailings],
  exports: [],
})
export class ChangelogModule {}
