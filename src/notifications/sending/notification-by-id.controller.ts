import { Controller, Delete, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentProject } from '../../auth/current.decorators';
import { ApiEnvelope, ApiErrors } from '../../common/http/api-docs';
import { PathId } from '../../common/http/path-param.pipe';
import { Auth } from '../../common/http/route-policy';
import type { ProjectRef } from '../../projects/project-ref';
import { DeletedNotificationDto, NotificationDetailDto } from './dto/sent-notification.dto';
import { ManagementService } from './management.service';

/**
 * `GET` and `DELETE /v1/notifications/{id}`. A controller of its own so the module
 * can register it after every controller with fixed paths under /v1/notifications (inbox,
 * unread, settings, usage), which `{id}` would otherwise capture.
 */
@ApiTags('Notifications')
@Controller('v1/notifications')
export class NotificationByIdController {
  constructor(private readonly management: ManagementService) {}

  @Get(':id')
  @Auth('secret')
  @ApiOperation({ summary: 'One notification with its stats: reached, read, clicked, rates, reactions, active_7d.' })
  @ApiEnvelope(NotificationDetailDto)
  @ApiErrors('NOT_FOUND')
  getNotification(@CurrentProject() project: ProjectRef, @PathId('id', 'ntf') id: string): Promise<NotificationDetailDto> {
    return this.management.getNotification(project, id);
  }

  @Delete(':id')
  @Auth('secret')
  @ApiOperation({ summary: 'Delete a notification: it leaves every bell; a scheduled one gives its send back to the month.' })
  @ApiEnvelope(DeletedNotificationDto)
  @ApiErrors('NOT_FOUND')
  deleteNotification(@CurrentProject() project: ProjectRef, @PathId('id', 'ntf') id: string): Promise<DeletedNotificationDto> {
    return this.management.deleteNotification(project, id);
  }
}
