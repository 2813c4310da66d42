import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth } from '../common/http/route-policy';
import { CurrentProject } from '../auth/current.decorators';
import { ApiEnvelope, ApiErrors } from '../common/http/api-docs';
import { ContactDto } from '../contacts/dto/contact.dto';
import { Idempotent } from '../idempotency/idempotent.decorator';
import type { ProjectRef } from '../projects/project-ref';
import { AnalyticsService } from './analytics.service';
import { AttributionService } from './attribution.service';
import { AttributionDto, AttributionQueryDto } from './dto/attribution.dto';
import { RequiresFeature } from '../projects/requires-feature';
import { IdentifyDto } from './dto/identify.dto';

@ApiTags('Analytics')
@Controller('v1/analytics')
export class AnalyticsController {
  constructor(
    private readonly analytics: AnalyticsService,
    private readonly attribution: AttributionService,
  ) {}

  @Get('attribution')
  @Auth('secret')
  @RequiresFeature('attribution')
  @ApiOperation({
    summary:
      'Per group (utm_source, utm_medium, utm_campaign, referrer, source or referred): waitlist signups in the range, confirmed, identified, paying now and their MRR, with the rates between them.',
  })
  @ApiEnvelope(AttributionDto)
  @ApiErrors('VALIDATION_ERROR')
  getAttribution(@CurrentProject() project: ProjectRef, @Query() query: AttributionQueryDto): Promise<AttributionDto> {
    return this.attribution.getAttribution(project, query);
  }

  @Post('identify')
  @HttpCode(200)
  @Auth('secret')
  @Idempotent()
  @ApiOperation({
    summary: 'Link a user id to an email (server side). Creates or updates the contact and answers it.',
  })
  @ApiEnvelope(ContactDto)
  @ApiErrors('VALIDATION_ERROR', 'PAYLOAD_TOO_LARGE')
  identify(@CurrentProject() project: ProjectRef, @Body() body: IdentifyDto): Promise<ContactDto> {
    return this.analytics.identify(project, body);
  }
}
