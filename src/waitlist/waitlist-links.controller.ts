import { Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { EmailLinkPage } from '../common/email-links/email-link-page.decorator';
import { RawReply } from '../common/http/reply';
import { EmailLinksService } from './email-links.service';
import { EmailTokenQueryDto } from '../common/email-links/dto/email-token-query.dto';

const INVALID = 'The token is unknown or not meant for this link.';

/**
 * The links in waitlist emails, opened by people in a browser: they answer HTML pages. A GET
 * (which mail scanners send too) only shows a page whose button POSTs; the POST acts.
 */
@ApiTags('Waitlist')
@Controller('v1/waitlist')
export class WaitlistLinksController {
  constructor(private readonly links: EmailLinksService) {}

  @Get('confirm')
  @EmailLinkPage({
    summary: 'The double opt-in link of the confirmation email: a page whose button confirms (POST). Opening it changes nothing.',
    page: 'The confirmation page (or "confirmed" when it already is).',
    invalid: INVALID,
  })
  showConfirmation(@Query() query: EmailTokenQueryDto): Promise<RawReply> {
    return this.links.showConfirmation(query.token);
  }

  @Post('confirm')
  @HttpCode(200)
  @EmailLinkPage({
    summary: "The confirmation page's button: confirms the signup and answers an HTML page.",
    page: 'Confirmed (also when it already was).',
    invalid: INVALID,
  })
  confirmSignup(@Query() query: EmailTokenQueryDto): Promise<RawReply> {
    return this.links.confirmSignup(query.token);
  }

  @Get('unsubscribe')
  @EmailLinkPage({
    summary: 'The unsubscribe link of every waitlist email: a page whose button unsubscribes (POST). Opening it changes nothing.',
    page: 'The unsubscribe page (or "unsubscribed" when it already is).',
    invalid: INVALID,
  })
  showUnsubscribe(@Query() query: EmailTokenQueryDto): Promise<RawReply> {
    return this.links.showUnsubscribe(query.token);
  }

  @Post('unsubscribe')
  @HttpCode(200)
  @EmailLinkPage({
    summary:
      "Unsubscribe: the unsubscribe page's button, and the one-click POST (RFC 8058) a mail client sends to the List-Unsubscribe link. The signup becomes `unsubscribed` and its email consent is withdrawn.",
    page: 'Unsubscribed (also when it already was).',
    invalid: INVALID,
  })
  unsubscribeSignup(@Query() query: EmailTokenQueryDto): Promise<RawReply> {
    return this.links.unsubscribe(query.token);
  }
}
