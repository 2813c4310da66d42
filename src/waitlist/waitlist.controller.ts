import { Body, Controller, Get, HttpCode, Ip, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth } from '../common/http/route-policy';
import { CurrentCaller, CurrentProject } from '../auth/current.decorators';
import { ApiEnvelope, ApiErrors } from '../common/http/api-docs';
import { Paged } from '../common/http/reply';
import type { Caller } from '../auth/caller';
import { Idempotent } from '../idempotency/idempotent.decorator';
import type { ProjectRef } from '../projects/project-ref';
import { RequiresFeature } from '../projects/requires-feature';
import { CreateInvitesDto } from './dto/create-invites.dto';
import { CreateSignupDto } from './dto/create-signup.dto';
import { InviteResultDto } from './dto/invite-result.dto';
import { LeaderboardItemDto } from './dto/leaderboard-item.dto';
import { ListSignupsQueryDto } from './dto/list-signups-query.dto';
import { ResendConfirmationDto, ResendConfirmationResultDto } from './dto/resend-confirmation.dto';
import { SignupResultDto } from './dto/signup-result.dto';
import { SignupDto } from './dto/signup.dto';
import { WaitlistStatsDto } from './dto/waitlist-stats.dto';
import { InvitesService } from './invites.service';
import { SignupsService } from './signups.service';
import { StatsService } from './stats.service';

@ApiTags('Waitlist')
@Controller('v1/waitlist')
export class WaitlistController {
  constructor(
    private readonly signups: SignupsService,
    private readonly stats: StatsService,
    private readonly invites: InvitesService,
  ) {}

  @Post('signups')
  @Auth('publishable')
  @Idempotent()
  @ApiOperation({
    summary: 'Join the waitlist. Assigns the next position, credits a referrer and sends the double opt-in email.',
  })
  @ApiEnvelope(SignupResultDto, { status: 201 })
  @ApiErrors('VALIDATION_ERROR', 'PAYLOAD_TOO_LARGE', 'DUPLICATE_SIGNUP', 'TURNSTILE_FAILED', 'TURNSTILE_UNAVAILABLE')
  createSignup(
    @CurrentProject() project: ProjectRef,
    @CurrentCaller() caller: Caller,
    @Ip() ip: string,
    @Body() body: CreateSignupDto,
  ): Promise<SignupResultDto> {
    return this.signups.createSignup(project, body, { kind: caller.kind, ip: ip ?? null });
  }

  @Get('signups')
  @Auth('secret')
  @ApiOperation({ summary: 'List signups in line order (position ascending), filtered by email or status.' })
  @ApiEnvelope(SignupDto, { paged: true })
  @ApiErrors('VALIDATION_ERROR')
  listSignups(@CurrentProject() project: ProjectRef, @Query() query: ListSignupsQueryDto): Promise<Paged<SignupDto>> {
    return this.signups.listSignups(project, query);
  }

  @Post('signups/resend-confirmation')
  @HttpCode(200)
  @Auth('secret')
  @RequiresFeature('waitlist_resend_confirmation')
  @ApiOperation({ summary: 'Send the confirmation email again (at most once per 5 minutes per email).' })
  @ApiEnvelope(ResendConfirmationResultDto)
  @ApiErrors('VALIDATION_ERROR', 'PAYLOAD_TOO_LARGE', 'NOT_FOUND', 'RATE_LIMITED')
  resendConfirmation(@CurrentProject() project: ProjectRef, @Body() body: ResendConfirmationDto): Promise<ResendConfirmationResultDto> {
    return this.signups.resendConfirmation(project, body.email);
  }

  @Get('stats')
  @Auth('secret')
  @ApiOperation({ summary: 'Totals, confirmation, invites and referral figures of the waitlist.' })
  @ApiEnvelope(WaitlistStatsDto)
  getWaitlistStats(@CurrentProject() project: ProjectRef): Promise<WaitlistStatsDto> {
    return this.stats.getStats(project);
  }

  @Get('leaderboard')
  @Auth('secret')
  @ApiOperation({ summary: 'Up to 50 people with the most referrals, earliest signup first on ties; emails masked.' })
  @ApiEnvelope(LeaderboardItemDto, { isArray: true })
  getWaitlistLeaderboard(@CurrentProject() project: ProjectRef): Promise<LeaderboardItemDto[]> {
    return this.stats.getLeaderboard(project);
  }

  @Post('invites')
  @HttpCode(200)
  @Auth('secret')
  @RequiresFeature('waitlist_invites')
  @Idempotent()
  @ApiOperation({
    summary: 'Invite the next `count` waiting people (first in, first out) or one `specific_email`: one wave, one event.',
  })
  @ApiEnvelope(InviteResultDto)
  @ApiErrors('VALIDATION_ERROR', 'PAYLOAD_TOO_LARGE', 'NOT_FOUND', 'RATE_LIMITED')
  inviteSignups(@CurrentProject() project: ProjectRef, @Body() body: CreateInvitesDto): Promise<InviteResultDto> {
    return this.invites.inviteSignups(project, body);
  }
}
