import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiTags } from '@nestjs/swagger';
import { EmailLinkPage } from '../../common/email-links/email-link-page.decorator';
import { EmailTokenQueryDto } from '../../common/email-links/dto/email-token-query.dto';
import { RawReply } from '../../common/http/reply';
import { SubscriberLinksService } from './subscriber-links.service';

const INVALID = 'The token is unknown, not meant for this link, or its subscriber has unsubscribed.';

/**
 * The links in changelog emails, opened by people in a browser: they answer HTML pages. A GET
 * (which mail scanners send too) only shows a page whose button POSTs; the POST acts.
 */
@ApiTags('Changelog')
@Controller('v1/changelog/subscribers')
export class SubscriberLinksController {
  constructor(private readonly links: SubscriberLinksService) {}

  @Get('confirm')
  @EmailLinkPage({
    summary: 'The link of the confirmation email: a page whose button confirms (POST). Opening it changes nothing.',
    page: 'The confirmation page (or "confirmed" when it already is).',
    invalid: INVALID,
  })
  showSubscriberConfirmation(@Query() query: EmailTokenQueryDto): Promise<RawReply> {
    return this.links.showConfirmation(query.token);
  }

  @Post('confirm')
  @HttpCode(200)
  @EmailLinkPage({
    summary: "The confirmation page's button: confirms the subscriber (changelog.subscriber.created is sent then) and answers a page.",
    page: 'Confirmed (also when it already was).',
    invalid: INVALID,
  })
  confirmSubscriber(@Query() query: EmailTokenQueryDto): Promise<RawReply> {
    return this.links.confirmSubscriber(query.token);
  }

  @Get('unsubscribe')
  @EmailLinkPage({
    summary: 'The unsubscribe link of every changelog email: a page whose button unsubscribes (POST). Opening it changes nothing.',
    page: 'The unsubscribe page.',
    invalid: INVALID,
  })
  showSubscriberUnsubscribe(@Query() query: EmailTokenQueryDto): Promise<RawReply> {
    return this.links.showUnsubscribe(query.token);
  }

  @Post('unsubscribe')
  @HttpCode(200)
  @EmailLinkPage({
    summary:
      "Unsubscribe: the unsubscribe page's button, and the one-click POST (RFC 8058) a mail client sends to the List-Unsubscribe link. Deletes the subscriber with its labels and links.",
    page: 'Unsubscribed.',
    invalid: INVALID,
  })
  unsubscribeSubscriber(@Query() query: EmailTokenQueryDto): Promise<RawReply> {
    return this.links.unsubscribe(query.token);
  }

  @Get('preferences')
  @EmailLinkPage({
    summary: 'The "Choose your topics" link of every changelog email: the project\'s labels as a form.',
    page: 'The topics form.',
    invalid: INVALID,
  })
  showSubscriberPreferences(@Query() query: EmailTokenQueryDto): Promise<RawReply> {
    return this.links.showPreferences(query.token);
  }

  @Post('preferences')
  @HttpCode(200)
  @EmailLinkPage({
    summary: 'The topics form posts here: the checked labels replace what the subscriber follows (none: everything).',
    page: 'The form again, saved.',
    invalid: INVALID,
    errors: ['PAYLOAD_TOO_LARGE'],
  })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody({
    schema: {
      type: 'object',
      properties: {
        labels: {
          type: 'array',
          items: { type: 'string', example: 'billing' },
          description: 'Checked label slugs; unknown ones are skipped.',
        },
      },
    },
  })
  saveSubscriberPreferences(@Query() query: EmailTokenQueryDto, @Body() form: Record<string, unknown>): Promise<RawReply> {
    return this.links.savePreferences(query.token, form?.labels);
  }
}
