import { Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../common/http/api-docs';
import { RawReply } from '../common/http/reply';
import { Auth } from '../common/http/route-policy';
import { EmailLinksService } from './email-links.service';
import { EmailTokenQueryDto } from '../common/email-links/dto/email-token-query.dto';

const HTML = { 'text/html': { schema: { type: 'string' } } };
const INVALID = { status: 404, description: 'The token is unknown or not meant for this link.', content: HTML };

/**
 * The links in waitlist emails, opened by people in a browser: they answer HTML pages. A GET
 * (which mail scanners send too) only shows a page whose button POSTs; the POST acts.
 */
@ApiTags('Waitlist')
@Controller('v1/waitlist')
export class WaitlistLinksController {
  constructor(private readonly links: EmailLinksService) {}

  @Get('confirm')
  @Auth('none', { browser: true })
  @ApiOperation({
    summary: 'The double opt-in link of the confirmation email: a page whose button confirms (POST). Opening it changes nothing.',
  })
  @ApiProduces('text/html')
  @ApiResponse({ status: 200, description: 'The confirmation page (or "confirmed" when it already is).', content: HTML })
  @ApiResponse(INVALID)
  @ApiErrors('VALIDATION_ERROR')
  showConfirmation(@Query() query: EmailTokenQueryDto): Promise<RawReply> {
    return this.links.showConfirmation(query.token);
  }

  @Post('confirm')
  @HttpCode(200)
  @Auth('none', { browser: true })
  @ApiOperation({ summary: "The confirmation page's button: confirms the signup and answers an HTML page." })
  @ApiProduces('text/html')
  @ApiResponse({ status: 200, description: 'Confirmed (also when it already was).', content: HTML })
  @ApiResponse(INVALID)
  @ApiErrors('VALIDATION_ERROR')
  confirmSignup(@Query() query: EmailTokenQueryDto): Promise<RawReply> {
    return this.links.confirmSignup(query.token);
  }

  @Get('unsubscribe')
  @Auth('none', { browser: true })
  @ApiOperation({
    summary: 'The unsubscribe link of every waitlist email: a page whose button unsubscribes (POST). Opening it changes nothing.',
  })
  @ApiProduces('text/html')
  @ApiResponse({ status: 200, description: 'The unsubscribe page (or "unsubscribed" when it already is).', content: HTML })
  @ApiResponse(INVALID)
  @ApiErrors('VALIDATION_ERROR')
  showUnsubscribe(@Query() query: EmailTokenQueryDto): Promise<RawReply> {
    return this.links.showUnsubscribe(query.token);
  }

  @Post('unsubscribe')
  @HttpCode(200)
  @Auth('none', { browser: true })
  @ApiOperation({
    summary:
      "Unsubscribe: the unsubscribe page's button, and the one-click POST (RFC 8058) a mail client sends to the List-Unsubscribe link. The signup becomes `unsubscribed` and its email consent is withdrawn.",
  })
  @ApiProduces('text/html')
  @ApiResponse({ status: 200, description: 'Unsubscribed (also when it already was).', content: HTML })
  @ApiResponse(INVALID)
  @ApiErrors('VALIDATION_ERROR')
  unsubscribeSignup(@Query() query: EmailTokenQueryDto): Promise<RawReply> {
    return this.links.unsubscribe(query.token);
  }
}
