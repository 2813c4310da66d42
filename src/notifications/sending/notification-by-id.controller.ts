import { Controller, Delete, Get, Param } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentProject } from '../../auth/current.decorators';
import { ApiEnvelope, ApiErrors } from '../../common/http/api-docs';
import { Auth } from '../../common/http/route-policy';
import type { ProjectRef } from '../../projects/project-ref';
import { DeletedNotificationDto, NotificationDetailDto } from './dto/sent-notification.dto';
import { ManagementService } from './management.service';

export const NOTIFICATION_ID = { name: 'notification_id', example: 'ntf_01JD3Z4Q9X8V7T6S5R4Q3P2N1M' };

/**
 * `GET` and `DELETE /v1/notifications/{notification_id}`. A controller of its own so the module
 * can register it after every controller with fixed paths under /v1/notifications (inbox,
 * unread, settings, usage), which `{notification_id}` would otherwise capture.
 */
@ApiTags('Notifications')
@Controller('v1/notifications')
export class NotificationByIdController {
  constructor(private readonly management: ManagementService) {}

  @Get(':notification_id')
  @Auth('secret')
  @ApiOperation({ summary: 'One notification with its stats: reached, read, clicked, rates, reactions, active_7d.' })
  @ApiParam(NOTIFICATION_ID)
  @ApiEnvelope(NotificationDetailDto)
  @ApiErrors('NOT_FOUND')
  getNotification(@CurrentProject() project: ProjectRef, @Param('notification_id') id: string): Promise<NotificationDetailDto> {
    return this.management.getNotification(project, id);
  }

  @Delete(':notification_id')
  @Auth('secret')
  @ApiOperation({ summary: 'Delete a notification: it leaves every bell; a scheduled one gives its send back to the month.' })
  @ApiParam(NOTIFICATION_ID)
  @ApiEnvelope(DeletedNotificationDto)
  @ApiErrors('NOT_FOUND')
  deleteNotification(@CurrentProject() project: ProjectRef, @Param('notification_id') id: string): Promise<DeletedNotificationDto> {
    return this.management.deleteNotification(project, id);
  }
}
