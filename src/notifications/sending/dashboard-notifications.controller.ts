import { Controller, Delete, Get, Query } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentProject } from '../../auth/current.decorators';
import { ApiEnvelope, ApiErrors } from '../../common/http/api-docs';
import { PathId } from '../../common/http/path-param.pipe';
import { Paged } from '../../common/http/reply';
import { Auth } from '../../common/http/route-policy';
import type { ProjectRef } from '../../projects/project-ref';
import { ListNotificationsQueryDto } from './dto/list-notifications-query.dto';
import { DeletedNotificationDto, NotificationDetailDto, SentNotificationDto } from './dto/sent-notification.dto';
import { ManagementService } from './management.service';

const PROJECT_HEADER = { name: 'X-Service-Project', required: true, description: 'The id of one of your projects.' };

/** The management routes the dashboard has too (spec: "the same list, get and delete operations"). */
@ApiTags('Dashboard')
@Controller('v1/dashboard/notifications')
export class DashboardNotificationsController {
  constructor(private readonly management: ManagementService) {}

  @Get()
  @Auth('dashboard')
  @ApiHeader(PROJECT_HEADER)
  @ApiOperation({ summary: 'List what was sent, from the dashboard; the filters of GET /v1/notifications.' })
  @ApiEnvelope(SentNotificationDto, { paged: true })
  @ApiErrors('VALIDATION_ERROR')
  dashboardListNotifications(
    @CurrentProject() project: ProjectRef,
    @Query() query: ListNotificationsQueryDto,
  ): Promise<Paged<SentNotificationDto>> {
    return this.management.listNotifications(project, query);
  }

  @Get(':id')
  @Auth('dashboard')
  @ApiHeader(PROJECT_HEADER)
  @ApiOperation({ summary: 'One notification with its stats, from the dashboard.' })
  @ApiEnvelope(NotificationDetailDto)
  @ApiErrors('NOT_FOUND')
  dashboardGetNotification(@CurrentProject() project: ProjectRef, @PathId('id', 'ntf') id: string): Promise<NotificationDetailDto> {
    return this.management.getNotification(project, id);
  }

  @Delete(':id')
  @Auth('dashboard')
  @ApiHeader(PROJECT_HEADER)
  @ApiOperation({ summary: 'Delete a notification, from the dashboard.' })
  @ApiEnvelope(DeletedNotificationDto)
  @ApiErrors('NOT_FOUND')
  dashboardDeleteNotification(@CurrentProject() project: ProjectRef, @PathId('id', 'ntf') id: string): Promise<DeletedNotificationDto> {
    return this.management.deleteNotification(project, id);
  }
}
