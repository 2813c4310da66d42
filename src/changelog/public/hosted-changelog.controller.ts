import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiParam, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { RawReply } from '../../common/http/reply';
import { ApiSlugRedirect } from '../../common/http/permanent-redirect';
import { Auth } from '../../common/http/route-policy';
import { HostedChangelogService } from './hosted-changelog.service';

const HTML = { 'text/html': { schema: { type: 'string' } } };
const PAGE_HEADERS = {
  ETag: { schema: { type: 'string' } },
  'Cache-Control': { schema: { type: 'string', example: 'public, max-age=60' } },
};
const NOT_MODIFIED = { status: 304, description: 'The If-None-Match tag is current: no body.' };
const IF_NONE_MATCH = { name: 'If-None-Match', required: false, description: 'The ETag of a copy you hold; a match answers 304.' };
const SLUG = { name: 'project_slug', example: 'acme', description: "The project's slug." };

/** The hosted changelog pages: `{base_url}/changelog/{slug}` and each entry's public_url. */
@ApiTags('Changelog (public)')
@Controller('changelog')
export class HostedChangelogController {
  constructor(private readonly hosted: HostedChangelogService) {}

  @Get(':project_slug')
  @Auth('none', { browser: true })
  @ApiSlugRedirect()
  @ApiOperation({
    summary:
      "The project's hosted changelog page: the newest 50 public entries, pinned first, with label filters, search and feed links. Works without JavaScript.",
  })
  @ApiParam(SLUG)
  @ApiQuery({ name: 'label', required: false, description: 'A label slug: only entries with that label.' })
  @ApiQuery({ name: 'q', required: false, description: 'Only entries whose title or body contains this text, ignoring case.' })
  @ApiHeader(IF_NONE_MATCH)
  @ApiProduces('text/html')
  @ApiResponse({ status: 200, description: 'The page.', headers: PAGE_HEADERS, content: HTML })
  @ApiResponse(NOT_MODIFIED)
  @ApiResponse({ status: 404, description: 'No project has this slug.', content: HTML })
  showChangelogPage(@Param('project_slug') slug: string, @Query('label') label: unknown, @Query('q') q: unknown): Promise<RawReply> {
    return this.hosted.showChangelogPage(slug, label, q);
  }

  @Get(':project_slug/:entry_id')
  @Auth('none', { browser: true })
  @ApiSlugRedirect()
  @ApiOperation({ summary: "One entry's page: its `public_url`. Only entries of the public changelog; any other id is the 404 page." })
  @ApiParam(SLUG)
  @ApiParam({ name: 'entry_id', example: 'ce_01JD3Z4Q9X8V7T6S5R4Q3P2N1M' })
  @ApiHeader(IF_NONE_MATCH)
  @ApiProduces('text/html')
  @ApiResponse({ status: 200, description: 'The page.', headers: PAGE_HEADERS, content: HTML })
  @ApiResponse(NOT_MODIFIED)
  @ApiResponse({ status: 404, description: 'No public entry at this address (or no project with this slug).', content: HTML })
  showEntryPage(@Param('project_slug') slug: string, @Param('entry_id') entryId: string): Promise<RawReply> {
    return this.hosted.showEntryPage(slug, entryId);
  }
}
