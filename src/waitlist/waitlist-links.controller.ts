import { Controller, Get, Header, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../common/http/api-docs';
import { RawReply } from '../common/http/reply';
import { Auth } from '../common/http/route-policy';
import { EmailLinksService } from './email-links.service';
import { EmailTokenQueryDto } from './dto/email-token-query.dto';

const HTML = { 'text/html': { schema: { type: 'string' } } };

const htmlPage = (page: { status: number; html: string }) => new RawReply(page.html, 'text/html; charset=utf-8', page.status);

/** The links in waitlist emails: opened by people in a browser, so they answer HTML pages. */
@ApiTags('Waitlist')
@Controller('v1/waitlist')
export class WaitlistLinksController {
  constructor(private readonly links: EmailLinksService) {}

  @Get('confirm')
  @Auth('none', { browser: true })
  @Header('Cache-Control', 'no-store')
  @ApiOperation({ summary: 'The double opt-in link of the confirmation email: confirms the signup and answers an HTML page.' })
  @ApiProduces('text/html')
  @ApiResponse({ status: 200, description: 'Confirmed (also when it already was).', content: HTML })
  @ApiResponse({ status: 404, description: 'The token is unknown or not a confirmation token.', content: HTML })
  @ApiErrors('VALIDATION_ERROR')
  async confirmSignup(@Query() query: EmailTokenQueryDto): Promise<RawReply> {
    return htmlPage(await this.links.confirmSignup(query.token));
  }

  @Get('unsubscribe')
  @Auth('none', { browser: true })
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary: 'The unsubscribe link of every waitlist email: the signup becomes `unsubscribed` and its email consent is withdrawn.',
  })
  @ApiProduces('text/html')
  @ApiResponse({ status: 200, description: 'Unsubscribed (also when it already was).', content: HTML })
  @ApiResponse({ status: 404, description: 'The token is unknown or not an unsubscribe token.', content: HTML })
  @ApiErrors('VALIDATION_ERROR')
  async unsubscribeSignup(@Query() query: EmailTokenQueryDto): Promise<RawReply> {
    return htmlPage(await this.links.unsubscribe(query.token));
  }

  @Post('unsubscribe')
  @HttpCode(200)
  @Auth('none', { browser: true })
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary:
      'One-click unsubscribe (RFC 8058): what a mail client posts to the List-Unsubscribe link. Same effect and answer as opening the link.',
  })
  @ApiProduces('text/html')
  @ApiResponse({ status: 200, description: 'Unsubscribed (also when it already was).', content: HTML })
  @ApiResponse({ status: 404, description: 'The token is unknown or not an unsubscribe token.', content: HTML })
  @ApiErrors('VALIDATION_ERROR')
  async unsubscribeOneClick(@Query() query: EmailTokenQueryDto): Promise<RawReply> {
    return htmlPage(await this.links.unsubscribe(query.token));
  }
}
