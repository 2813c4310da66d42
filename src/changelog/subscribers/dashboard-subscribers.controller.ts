import { Body, Controller, Put } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentProject } from '../../auth/current.decorators';
import { ApiEnvelope, ApiErrors } from '../../common/http/api-docs';
import { PathId } from '../../common/http/path-param.pipe';
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
  @ApiEnvelope(SubscriberLabelsDto)
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND', 'PAYLOAD_TOO_LARGE')
  dashboardSetSubscriberLabels(
    @CurrentProject() project: ProjectRef,
    @PathId('subscriber_id', 'sub') subscriberId: string,
    @Body() body: SetSubscriberLabelsDto,
  ): Promise<SubscriberLabelsDto> {
    return this.subscribers.setSubscriberLabels(project, subscriberId, body.labels);
  }
}
