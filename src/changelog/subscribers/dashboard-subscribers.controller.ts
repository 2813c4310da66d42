import { Body, Controller, Param, Put } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentProject } from '../../auth/current.decorators';
import { ApiEnvelope, ApiErrors } from '../../common/http/api-docs';
import { Auth } from '../../common/http/route-policy';
import type { ProjectRef } from '../../projects/project-ref';
import { SetSubscriberLabelsDto, SubscriberLabelsDto } from './dto/subscriber-labels.dto';
import { SubscribersService } from './subscribers.service';

/** The subscriber routes the dashboard offers too (spec: "Also available under /v1/dashboard/changelog"). */
@ApiTags('Dashboard')
@Controller('v1/dashboard/changelog/subscribers')
export class DashboardSubscribersController {
  constructor(private readonly subscribers: SubscribersService) {}

  @Put(':subscriber_id/labels')
  @Auth('dashboard')
  @ApiHeader({ name: 'X-Service-Project', required: true, description: 'The id of one of your projects.' })
  @ApiOperation({ summary: 'Replace the labels a subscriber follows, from the dashboard; an empty list means every public entry.' })
  @ApiParam({ name: 'subscriber_id', example: 'sub_01JD3Z4Q9X8V7T6S5R4Q3P2N1M' })
  @ApiEnvelope(SubscriberLabelsDto)
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND', 'PAYLOAD_TOO_LARGE')
  dashboardSetSubscriberLabels(
    @CurrentProject() project: ProjectRef,
    @Param('subscriber_id') subscriberId: string,
    @Body() body: SetSubscriberLabelsDto,
  ): Promise<SubscriberLabelsDto> {
    return this.subscribers.setSubscriberLabels(project, subscriberId, body.labels);
  }
}
