import { Controller, Get, Header, HttpCode, Post, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Auth } from '../auth/auth.decorator';
import { ApiErrors } from '../common/http/api-docs';
import { RawResponse } from '../common/http/envelope.interceptor';
import { EmailLinksService } from './email-links.service';
import { EmailTokenQueryDto } from './dto/email-token-query.dto';

const HTML = { 'text/html': { schema: { type: 'string' } } };

/** The links in waitlist emails: opened by people in a browser, so they answer HTML pages. */
@ApiTags('Waitlist')
@Controller('v1/waitlist')
export class WaitlistLinksController {
  constructor(private readonly links: EmailLinksService) {}

  @Get('confirm')
  @Auth('none', { browser: true })
  @RawResponse()
  @Header('Cache-Control', 'no-store')
  @ApiOperation({ summary: 'The double opt-in link of the confirmation email: confirms the signup and answers an HTML page.' })
  @ApiProduces('text/html')
  @ApiResponse({ status: 200, description: 'Confirmed (also when it already was).', content: HTML })
  @ApiResponse({ status: 404, description: 'The token is unknown or not a confirmation token.', content: HTML })
  @ApiErrors('VALIDATION_ERROR')
  async confirmSignup(@Query() query: EmailTokenQueryDto, @Res({ passthrough: true }) res: Response): Promise<string> {
    const page = await this.links.confirmSignup(query.token);
    // Set here, not with @Header: an error before this point must keep its JSON content type.
    res.status(page.status).type('html');
    return page.html;
  }

  @Get('unsubscribe')
  @Auth('none', { browser: true })
  @RawResponse()
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary: 'The unsubscribe link of every waitlist email: the signup becomes `unsubscribed` and its email consent is withdrawn.',
  })
  @ApiProduces('text/html')
  @ApiResponse({ status: 200, description: 'Unsubscribed (also when it already was).', content: HTML })
  @ApiResponse({ status: 404, description: 'The token is unknown or not an unsubscribe token.', content: HTML })
  @ApiErrors('VALIDATION_ERROR')
  async unsubscribeSignup(@Query() query: EmailTokenQueryDto, @Res({ passthrough: true }) res: Response): Promise<string> {
    const page = await this.links.unsubscribe(query.token);
    // Set here, not with @Header: an error before this point must keep its JSON content type.
    res.status(page.status).type('html');
    return page.html;
  }

  @Post('unsubscribe')
  @HttpCode(200)
  @Auth('none', { browser: true })
  @RawResponse()
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary:
      'One-click unsubscribe (RFC 8058): what a mail client posts to the List-Unsubscribe link. Same effect and answer as opening the link.',
  })
  @ApiProduces('text/html')
  @ApiResponse({ status: 200, description: 'Unsubscribed (also when it already was).', content: HTML })
  @ApiResponse({ status: 404, description: 'The token is unknown or not an unsubscribe token.', content: HTML })
  @ApiErrors('VALIDATION_ERROR')
  async unsubscribeOneClick(@Query() query: EmailTokenQueryDto, @Res({ passthrough: true }) res: Response): Promise<string> {
    const page = await this.links.unsubscribe(query.token);
    res.status(page.status).type('html');
    return page.html;
  }
}
