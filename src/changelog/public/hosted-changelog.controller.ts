import { Controller, Get, Query } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../common/http/api-docs';
import { CustomDomainHost } from '../../common/http/custom-domain-host';
import { PathId, PathParam } from '../../common/http/path-param.pipe';
import type { RawReply } from '../../common/http/reply';
import { ApiSlugRedirect } from '../../common/http/permanent-redirect';
import { Auth } from '../../common/http/route-policy';
import { PROJECT_SLUG_PARAM } from '../../projects/slugs';
import { changelogNotFoundPage } from './changelog-pages';
import { HostedChangelogService } from './hosted-changelog.service';

const HTML = { 'text/html': { schema: { type: 'string' } } };
const PAGE_HEADERS = {
  ETag: { schema: { type: 'string' } },
  'Cache-Control': { schema: { type: 'string', example: 'public, max-age=60' } },
};
const NOT_MODIFIED = { status: 304, description: 'The If-None-Match tag is current: no body.' };
const IF_NONE_MATCH = { name: 'If-None-Match', required: false, description: 'The ETag of a copy you hold; a match answers 304.' };

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
  @ApiQuery({ name: 'label', required: false, description: 'A label slug: only entries with that label.' })
  @ApiQuery({ name: 'q', required: false, description: 'Only entries whose title or body contains this text, ignoring case.' })
  @ApiHeader(IF_NONE_MATCH)
  @ApiProduces('text/html')
  @ApiResponse({ status: 200, description: 'The page.', headers: PAGE_HEADERS, content: HTML })
  @ApiResponse(NOT_MODIFIED)
  @ApiResponse({ status: 404, description: 'No project has this slug.', content: HTML })
  // A NUL byte or a lone surrogate in `label` or `q` (validation.pipe.ts): refused before the page.
  @ApiErrors('VALIDATION_ERROR')
  showChangelogPage(
    @PathParam('project_slug', PROJECT_SLUG_PARAM, { notFoundPage: changelogNotFoundPage })
    slug: string,
    @Query('label') label: unknown,
    @Query('q') q: unknown,
    @CustomDomainHost() customDomain: string | null,
  ): Promise<RawReply> {
    return this.hosted.showChangelogPage(slug, label, q, customDomain);
  }

  @Get(':project_slug/:entry_id')
  @Auth('none', { browser: true })
  @ApiSlugRedirect()
  @ApiOperation({ summary: "One entry's page: its `public_url`. Only entries of the public changelog; any other id is the 404 page." })
  @ApiHeader(IF_NONE_MATCH)
  @ApiProduces('text/html')
  @ApiResponse({ status: 200, description: 'The page.', headers: PAGE_HEADERS, content: HTML })
  @ApiResponse(NOT_MODIFIED)
  @ApiResponse({ status: 404, description: 'No public entry at this address (or no project with this slug).', content: HTML })
  showEntryPage(
    @PathParam('project_slug', PROJECT_SLUG_PARAM, { notFoundPage: changelogNotFoundPage })
    slug: string,
    @PathId('entry_id', 'ce', { notFoundPage: changelogNotFoundPage }) entryId: string,
    @CustomDomainHost() customDomain: string | null,
  ): Promise<RawReply> {
    return this.hosted.showEntryPage(slug, entryId, customDomain);
  }
}
