import { Controller, Get } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiEnvelope } from '../common/http/api-docs';
import type { RawReply } from '../common/http/reply';
import { PathParam } from '../common/http/path-param.pipe';
import { Auth } from '../common/http/route-policy';
import { AcceptsGzip } from './accepts-gzip.decorator';
import { ApiConditionalGet, ApiLatestScript, ApiPinnedScript, SCRIPT_HASH_PARAM } from './browser-scripts.docs';
import { BrowserScriptsDto } from './dto/browser-scripts.dto';
import { BrowserScriptsService } from './browser-scripts.service';

/**
 * The embeddable scripts on `{cdn_url}/v1/` (spec: Browser events), with no key and from any
 * origin. Source maps serve browser developer tools and are left out of the API reference.
 */
@ApiTags('Browser scripts')
@Controller('v1')
export class BrowserScriptsController {
  constructor(private readonly scripts: BrowserScriptsService) {}

  @Get('notifications.js')
  @Auth('none')
  @ApiLatestScript('The notification bell')
  getNotificationsScript(@AcceptsGzip() gzip: boolean): Promise<RawReply> {
    return this.scripts.getScript('notifications', gzip);
  }

  @Get('notifications.:hash.js')
  @Auth('none')
  @ApiPinnedScript('The notification bell')
  getPinnedNotificationsScript(@PathParam('hash', SCRIPT_HASH_PARAM) hash: string, @AcceptsGzip() gzip: boolean): Promise<RawReply> {
    return this.scripts.getScript('notifications', gzip, hash);
  }

  @Get('changelog.js')
  @Auth('none')
  @ApiLatestScript('The changelog widget')
  getChangelogScript(@AcceptsGzip() gzip: boolean): Promise<RawReply> {
    return this.scripts.getScript('changelog', gzip);
  }

  @Get('changelog.:hash.js')
  @Auth('none')
  @ApiPinnedScript('The changelog widget')
  getPinnedChangelogScript(@PathParam('hash', SCRIPT_HASH_PARAM) hash: string, @AcceptsGzip() gzip: boolean): Promise<RawReply> {
    return this.scripts.getScript('changelog', gzip, hash);
  }

  @Get('browser-scripts.json')
  @Auth('none')
  @ApiOperation({
    summary:
      'The current scripts at their content-hashed addresses on {cdn_url}, with their Subresource Integrity, for pages that pin a release. Cache-Control: public, max-age=300; ETag; If-None-Match answers 304.',
  })
  @ApiEnvelope(BrowserScriptsDto, { description: 'The current scripts.' })
  @ApiConditionalGet()
  getBrowserScripts(): Promise<RawReply> {
    return this.scripts.getBrowserScripts();
  }

  @Get('notifications.js.map')
  @Auth('none')
  @ApiExcludeEndpoint()
  getNotificationsSourceMap(@AcceptsGzip() gzip: boolean): Promise<RawReply> {
    return this.scripts.getSourceMap('notifications', gzip);
  }

  @Get('notifications.:hash.js.map')
  @Auth('none')
  @ApiExcludeEndpoint()
  getPinnedNotificationsSourceMap(@PathParam('hash', SCRIPT_HASH_PARAM) hash: string, @AcceptsGzip() gzip: boolean): Promise<RawReply> {
    return this.scripts.getSourceMap('notifications', gzip, hash);
  }

  @Get('changelog.js.map')
  @Auth('none')
  @ApiExcludeEndpoint()
  getChangelogSourceMap(@AcceptsGzip() gzip: boolean): Promise<RawReply> {
    return this.scripts.getSourceMap('changelog', gzip);
  }

  @Get('changelog.:hash.js.map')
  @Auth('none')
  @ApiExcludeEndpoint()
  getPinnedChangelogSourceMap(@PathParam('hash', SCRIPT_HASH_PARAM) hash: string, @AcceptsGzip() gzip: boolean): Promise<RawReply> {
    return this.scripts.getSourceMap('changelog', gzip, hash);
  }
}
