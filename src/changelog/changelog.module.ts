import { Module } from '@nestjs/common';
import { HostedChangelogController } from './public/hosted-changelog.controller';
import { HostedChangelogService } from './public/hosted-changelog.service';
import { PageInteractionsService } from './public/page-interactions.service';
import { PublicChangelogController } from './public/public-changelog.controller';
import { PublicChangelogService } from './public/public-changelog.service';
import { SubscriberMailings } from './subscribers/subscriber-mailings';

/**
 * The changelog (spec: Changelog): entries and their lifecycle, labels, settings, the public
 * surfaces (JSON, hosted page, feeds), subscribers and their emails, drafts from commits.
 */
@Module({
  imports: [],
  controllers: [PublicChangelogController, HostedChangelogController],
  providers: [SubscriberMailings, PublicChangelogService, HostedChangelogService, PageInteractionsService],
  exports: [],
})
export class ChangelogModule {}
