import { Module } from '@nestjs/common';
import { ChangelogEngagementModule } from '../engagement/engagement.module';
import { HostedChangelogController } from './hosted-changelog.controller';
import { HostedChangelogService } from './hosted-changelog.service';
import { PageInteractionsService } from './page-interactions.service';
import { PublicChangelogController } from './public-changelog.controller';
import { PublicChangelogCache } from './public-changelog.cache';
import { PublicChangelogService } from './public-changelog.service';
import { ProjectsModule } from '../../projects/projects.module';

/**
 * The public surfaces of a changelog (spec: Endpoints → Changelog, Public changelog entry): the
 * JSON, the feeds and the hosted pages, with the views and clicks they report. Exports its cache,
 * which every write that changes what the public sees (entries, labels) drops.
 */
@Module({
  imports: [ChangelogEngagementModule, ProjectsModule],
  controllers: [PublicChangelogController, HostedChangelogController],
  providers: [PublicChangelogService, PublicChangelogCache, HostedChangelogService, PageInteractionsService],
  exports: [PublicChangelogCache],
})
export class PublicChangelogModule {}
