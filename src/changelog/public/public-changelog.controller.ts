import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiEnvelope, ApiErrors } from '../../common/http/api-docs';
import { CustomDomainHost } from '../../common/http/custom-domain-host';
import { PathId, PathParam } from '../../common/http/path-param.pipe';
import type { RawReply } from '../../common/http/reply';
import { ApiSlugRedirect } from '../../common/http/permanent-redirect';
import { Auth } from '../../common/http/route-policy';
import { EngagementAddress } from '../engagement/engagement-address';
import { PROJECT_SLUG_PARAM } from '../../projects/slugs';
import { PageInteractionResultDto, RecordSeenDto } from './dto/page-interaction.dto';
import { PublicChangelogEntryDto } from './dto/public-changelog-entry.dto';
import { PublicChangelogQueryDto } from './dto/public-changelog-query.dto';
import { PageInteractionsService } from './page-interactions.service';
import { PublicChangelogService } from './public-changelog.service';

const CACHED = {
  ETag: { description: 'Strong validator of the body; send it back in If-None-Match.', schema: { type: 'string' } },
  'Cache-Control': { schema: { type: 'string', example: 'public, max-age=60' } },
};
const NOT_MODIFIED = { status: 304, description: 'The If-None-Match tag is current: no body.' };
const IF_NONE_MATCH = { name: 'If-None-Match', required: false, description: 'The ETag of a copy you hold; a match answers 304.' };
const feed = (contentType: string, what: string) => ({
  status: 200,
  description: what,
  headers: CACHED,
  content: { [contentType]: { schema: { type: 'string' } } },
});

/** The public changelog for readers and feed readers: no key, any origin. */
@ApiTags('Changelog (public)')
@Controller('public/changelog')
export class PublicChangelogController {
  constructor(
    private readonly publicChangelog: PublicChangelogService,
    private readonly interactions: PageInteractionsService,
  ) {}

  @Get(':project_slug')
  @Auth('none', { browser: true })
  @ApiSlugRedirect()
  @ApiOperation({
    summary:
      'The public entries (published, public audience, not expired): pinned first, then newest. The newest 50 unless `limit` says otherwise. ETag and Cache-Control: public, max-age=60; If-None-Match answers 304.',
  })
  @ApiHeader(IF_NONE_MATCH)
  @ApiEnvelope(PublicChangelogEntryDto, { isArray: true })
  @ApiResponse(NOT_MODIFIED)
  @ApiErrors('NOT_FOUND', 'VALIDATION_ERROR')
  listPublicEntries(
    @PathParam('project_slug', PROJECT_SLUG_PARAM) slug: string,
    @Query() query: PublicChangelogQueryDto,
  ): Promise<RawReply> {
    return this.publicChangelog.listPublicEntries(slug, query);
  }

  @Get(':project_slug/rss.xml')
  @Auth('none', { browser: true })
  @ApiSlugRedirect()
  @ApiOperation({ summary: 'RSS 2.0 feed of the newest 50 public entries, in the order of the JSON. ETag; If-None-Match answers 304.' })
  @ApiHeader(IF_NONE_MATCH)
  @ApiProduces('application/rss+xml')
  @ApiResponse(feed('application/rss+xml', 'RSS 2.0'))
  @ApiResponse(NOT_MODIFIED)
  @ApiErrors('NOT_FOUND')
  getRssFeed(
    @PathParam('project_slug', PROJECT_SLUG_PARAM) slug: string,
    @CustomDomainHost() customDomain: string | null,
  ): Promise<RawReply> {
    return this.publicChangelog.getFeed(slug, 'rss', customDomain);
  }

  @Get(':project_slug/atom.xml')
  @Auth('none', { browser: true })
  @ApiSlugRedirect()
  @ApiOperation({ summary: 'Atom 1.0 feed of the newest 50 public entries, in the order of the JSON. ETag; If-None-Match answers 304.' })
  @ApiHeader(IF_NONE_MATCH)
  @ApiProduces('application/atom+xml')
  @ApiResponse(feed('application/atom+xml', 'Atom 1.0'))
  @ApiResponse(NOT_MODIFIED)
  @ApiErrors('NOT_FOUND')
  getAtomFeed(
    @PathParam('project_slug', PROJECT_SLUG_PARAM) slug: string,
    @CustomDomainHost() customDomain: string | null,
  ): Promise<RawReply> {
    return this.publicChangelog.getFeed(slug, 'atom', customDomain);
  }

  @Get(':project_slug/feed.json')
  @Auth('none', { browser: true })
  @ApiSlugRedirect()
  @ApiOperation({ summary: 'JSON Feed of the newest 50 public entries, in the order of the JSON. ETag; If-None-Match answers 304.' })
  @ApiHeader(IF_NONE_MATCH)
  @ApiProduces('application/feed+json')
  @ApiResponse(feed('application/feed+json', 'JSON Feed'))
  @ApiResponse(NOT_MODIFIED)
  @ApiErrors('NOT_FOUND')
  getJsonFeed(
    @PathParam('project_slug', PROJECT_SLUG_PARAM) slug: string,
    @CustomDomainHost() customDomain: string | null,
  ): Promise<RawReply> {
    return this.publicChangelog.getFeed(slug, 'json', customDomain);
  }

  @Post(':project_slug/seen')
  @HttpCode(200)
  @Auth('none', { browser: true })
  @ApiSlugRedirect()
  @ApiOperation({
    summary:
      'The hosted page counts a view of the entries it showed. Ids outside the public changelog are skipped; `recorded` says how many were taken.',
  })
  @ApiEnvelope(PageInteractionResultDto)
  @ApiErrors('NOT_FOUND', 'VALIDATION_ERROR', 'PAYLOAD_TOO_LARGE')
  recordPageSeen(
    @PathParam('project_slug', PROJECT_SLUG_PARAM) slug: string,
    @Body() body: RecordSeenDto,
    @EngagementAddress() address: string,
  ): Promise<PageInteractionResultDto> {
    return this.interactions.recordSeen(slug, body, address);
  }

  @Post(':project_slug/entries/:id/click')
  @HttpCode(200)
  @Auth('none', { browser: true })
  @ApiSlugRedirect()
  @ApiOperation({ summary: "The hosted page counts a press of an entry's button. An entry outside the public changelog is NOT_FOUND." })
  @ApiEnvelope(PageInteractionResultDto)
  @ApiErrors('NOT_FOUND', 'PAYLOAD_TOO_LARGE')
  recordPageClick(
    @PathParam('project_slug', PROJECT_SLUG_PARAM) slug: string,
    @PathId('id', 'ce') entryId: string,
    @EngagementAddress() address: string,
  ): Promise<PageInteractionResultDto> {
    return this.interactions.recordClick(slug, entryId, address);
  }
}
