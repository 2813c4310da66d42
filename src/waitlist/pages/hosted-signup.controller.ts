import { Body, Controller, Get, HttpCode, Ip, Post, Query } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../common/http/api-docs';
import { CustomDomainHost } from '../../common/http/custom-domain-host';
import { PathParam } from '../../common/http/path-param.pipe';
import { RawReply } from '../../common/http/reply';
import { ApiSlugRedirect } from '../../common/http/permanent-redirect';
import { Auth } from '../../common/http/route-policy';
import { PROJECT_SLUG_PARAM } from '../../projects/slugs';
import { HostedSignupService, type SignupForm } from './hosted-signup.service';
import { TURNSTILE_FORM_FIELD, unknownWaitlistPage } from './waitlist-pages';

const HTML = { 'text/html': { schema: { type: 'string' } } };
const NO_WAITLIST = { status: 404, description: 'No project has this slug.', content: HTML };

/** The hosted waitlist page behind every referral link (`referral_link`). */
@ApiTags('Waitlist')
@Controller('w')
export class HostedSignupController {
  constructor(private readonly hosted: HostedSignupService) {}

  @Get(':slug')
  @Auth('none', { browser: true })
  @ApiSlugRedirect()
  @ApiOperation({ summary: "The project's hosted waitlist page: a signup form that works without JavaScript." })
  @ApiQuery({ name: 'ref', required: false, description: 'The referral code of the person who shared the link.' })
  @ApiProduces('text/html')
  @ApiResponse({ status: 200, description: 'The signup form.', content: HTML })
  @ApiResponse(NO_WAITLIST)
  // A NUL byte or a lone surrogate in `ref` (validation.pipe.ts): refused before the page.
  @ApiErrors('VALIDATION_ERROR')
  showSignupForm(
    @PathParam('slug', PROJECT_SLUG_PARAM, { notFoundPage: unknownWaitlistPage }) slug: string,
    @Query('ref') ref: unknown,
    @CustomDomainHost() customDomain: string | null,
  ): Promise<RawReply> {
    return this.hosted.showSignupForm(slug, ref, customDomain);
  }

  @Post(':slug')
  @HttpCode(201)
  @Auth('none', { browser: true })
  @ApiSlugRedirect()
  @ApiOperation({
    summary: 'The hosted form posts here: joins the waitlist as `POST /v1/waitlist/signups` does and shows the position and referral link.',
  })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['email'],
      properties: {
        email: { type: 'string', format: 'email', maxLength: 254, example: 'ada@example.com' },
        ref: {
          type: 'string',
          pattern: '^[A-Za-z0-9]{8}$',
          example: 'K7Q2M9XA',
          description: 'Referral code; a malformed one is ignored.',
        },
        // The bot-check provider's documented test token.
        [TURNSTILE_FORM_FIELD]: {
          type: 'string',
          example: 'XXXX.DUMMY.TOKEN.XXXX',
          description: 'Added by the bot-check widget when the bot check is on.',
        },
      },
      // The form is validated with forbidNonWhitelisted, like every JSON body.
      additionalProperties: false,
    },
  })
  @ApiProduces('text/html')
  @ApiResponse({ status: 201, description: 'Joined: the page shows the position and the referral link.', content: HTML })
  @ApiResponse({ status: 400, description: 'The form again, with what to fix (email, bot check).', content: HTML })
  @ApiResponse(NO_WAITLIST)
  @ApiResponse({ status: 409, description: 'The form again: this email is already on the waitlist.', content: HTML })
  @ApiResponse({ status: 503, description: 'The form again: the bot check could not be reached.', content: HTML })
  @ApiErrors('PAYLOAD_TOO_LARGE')
  submitSignupForm(
    @PathParam('slug', PROJECT_SLUG_PARAM, { notFoundPage: unknownWaitlistPage }) slug: string,
    @Body() form: SignupForm,
    @Ip() ip: string,
    @CustomDomainHost() customDomain: string | null,
  ): Promise<RawReply> {
    return this.hosted.submitSignupForm(slug, form ?? {}, ip ?? null, customDomain);
  }
}
