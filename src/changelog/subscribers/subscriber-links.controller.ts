import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import { EmailTokenQueryDto } from '../../common/email-links/dto/email-token-query.dto';
import { ApiErrors } from '../../common/http/api-docs';
import { RawReply } from '../../common/http/reply';
import { Auth } from '../../common/http/route-policy';
import { SubscriberLinksService } from './subscriber-links.service';

const HTML = { 'text/html': { schema: { type: 'string' } } };
const INVALID = {
  status: 404,
  description: 'The token is unknown, not meant for this link, or its subscriber has unsubscribed.',
  content: HTML,
};

/**
 * The links in changelog emails, opened by people in a browser: they answer HTML pages. A GET
 * (which mail scanners send too) only shows a page whose button POSTs; the POST acts.
 */
@ApiTags('Changelog')
@Controller('v1/changelog/subscribers')
export class SubscriberLinksController {
  constructor(private readonly links: SubscriberLinksService) {}

  @Get('confirm')
  @Auth('none', { browser: true })
  @ApiOperation({ summary: 'The link of the confirmation email: a page whose button confirms (POST). Opening it changes nothing.' })
  @ApiProduces('text/html')
  @ApiResponse({ status: 200, description: 'The confirmation page (or "confirmed" when it already is).', content: HTML })
  @ApiResponse(INVALID)
  @ApiErrors('VALIDATION_ERROR')
  showSubscriberConfirmation(@Query() query: EmailTokenQueryDto): Promise<RawReply> {
    return this.links.showConfirmation(query.token);
  }

  @Post('confirm')
  @HttpCode(200)
  @Auth('none', { browser: true })
  @ApiOperation({
    summary: "The confirmation page's button: confirms the subscriber (changelog.subscriber.created is sent then) and answers a page.",
  })
  @ApiProduces('text/html')
  @ApiResponse({ status: 200, description: 'Confirmed (also when it already was).', content: HTML })
  @ApiResponse(INVALID)
  @ApiErrors('VALIDATION_ERROR')
  confirmSubscriber(@Query() query: EmailTokenQueryDto): Promise<RawReply> {
    return this.links.confirmSubscriber(query.token);
  }

  @Get('unsubscribe')
  @Auth('none', { browser: true })
  @ApiOperation({
    summary: 'The unsubscribe link of every changelog email: a page whose button unsubscribes (POST). Opening it changes nothing.',
  })
  @ApiProduces('text/html')
  @ApiResponse({ status: 200, description: 'The unsubscribe page.', content: HTML })
  @ApiResponse(INVALID)
  @ApiErrors('VALIDATION_ERROR')
  showSubscriberUnsubscribe(@Query() query: EmailTokenQueryDto): Promise<RawReply> {
    return this.links.showUnsubscribe(query.token);
  }

  @Post('unsubscribe')
  @HttpCode(200)
  @Auth('none', { browser: true })
  @ApiOperation({
    summary:
      "Unsubscribe: the unsubscribe page's button, and the one-click POST (RFC 8058) a mail client sends to the List-Unsubscribe link. Deletes the subscriber with its labels and links.",
  })
  @ApiProduces('text/html')
  @ApiResponse({ status: 200, description: 'Unsubscribed.', content: HTML })
  @ApiResponse(INVALID)
  @ApiErrors('VALIDATION_ERROR')
  unsubscribeSubscriber(@Query() query: EmailTokenQueryDto): Promise<RawReply> {
    return this.links.unsubscribe(query.token);
  }

  @Get('preferences')
  @Auth('none', { browser: true })
  @ApiOperation({ summary: 'The "Choose your topics" link of every changelog email: the project\'s labels as a form.' })
  @ApiProduces('text/html')
  @ApiResponse({ status: 200, description: 'The topics form.', content: HTML })
  @ApiResponse(INVALID)
  @ApiErrors('VALIDATION_ERROR')
  showSubscriberPreferences(@Query() query: EmailTokenQueryDto): Promise<RawReply> {
    return this.links.showPreferences(query.token);
  }

  @Post('preferences')
  @HttpCode(200)
  @Auth('none', { browser: true })
  @ApiOperation({ summary: 'The topics form posts here: the checked labels replace what the subscriber follows (none: everything).' })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody({
    schema: {
      type: 'object',
      properties: { labels: { type: 'array', items: { type: 'string' }, description: 'Checked label slugs; unknown ones are skipped.' } },
    },
  })
  @ApiProduces('text/html')
  @ApiResponse({ status: 200, description: 'The form again, saved.', content: HTML })
  @ApiResponse(INVALID)
  @ApiErrors('VALIDATION_ERROR', 'PAYLOAD_TOO_LARGE')
  saveSubscriberPreferences(@Query() query: EmailTokenQueryDto, @Body() form: Record<string, unknown>): Promise<RawReply> {
    return this.links.savePreferences(query.token, form?.labels);
  }
}
