import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentProject } from '../../auth/current.decorators';
import { ApiEnvelope, ApiErrors } from '../../common/http/api-docs';
import { Paged, WithMeta } from '../../common/http/reply';
import { Auth } from '../../common/http/route-policy';
import { Idempotent } from '../../idempotency/idempotent.decorator';
import type { ProjectRef } from '../../projects/project-ref';
import { AudienceInputDto, CreateNotificationDto } from './dto/create-notification.dto';
import { ListNotificationsQueryDto } from './dto/list-notifications-query.dto';
import { AudiencePreviewDto, NotificationUsageDto, SentNotificationDto } from './dto/sent-notification.dto';
import { ManagementService } from './management.service';
import { NotificationQuota } from './notification-quota.service';
import { SendService } from './send.service';

const USAGE_META = {
  usage: { type: 'object', description: 'The month so far: month, sent, limit, remaining.' },
  audience: { type: 'object', description: 'Group sends: asked, reached, and up to 20 unreachable addresses or contact ids.' },
};

/** Sending and the routes without an id (secret key only). Routes with an id: notification-by-id.controller.ts. */
@ApiTags('Notifications')
@Controller('v1/notifications')
export class NotificationsController {
  constructor(
    private readonly sending: SendService,
    private readonly management: ManagementService,
    private readonly quota: NotificationQuota,
  ) {}

  @Post()
  @Auth('secret')
  @Idempotent()
  @ApiOperation({
    summary: 'Send a notification to one user (user_id), a group (user_ids, emails, contact_ids, contacts) or everyone (audience all).',
  })
  @ApiEnvelope(SentNotificationDto, { status: 201, meta: USAGE_META })
  @ApiErrors('VALIDATION_ERROR', 'PLAN_LIMIT_REACHED', 'NO_REACHABLE_RECIPIENTS', 'TOO_MANY_RECIPIENTS', 'PAYLOAD_TOO_LARGE')
  createNotification(@CurrentProject() project: ProjectRef, @Body() body: CreateNotificationDto): Promise<WithMeta<SentNotificationDto>> {
    return this.sending.createNotification(project, body);
  }

  @Post('audience')
  @HttpCode(200) // a preview creates nothing
  @Auth('secret')
  @ApiOperation({ summary: 'Preview a group: how many people it names, how many a send would reach; sends nothing.' })
  @ApiEnvelope(AudiencePreviewDto)
  @ApiErrors('VALIDATION_ERROR', 'PAYLOAD_TOO_LARGE')
  previewAudience(@CurrentProject() project: ProjectRef, @Body() body: AudienceInputDto): Promise<AudiencePreviewDto> {
    return this.sending.previewAudience(project, body);
  }

  @Get('usage')
  @Auth('secret')
  @ApiOperation({ summary: "This UTC month's sends against the plan's monthly limit." })
  @ApiEnvelope(NotificationUsageDto)
  getNotificationUsage(@CurrentProject() project: ProjectRef): Promise<NotificationUsageDto> {
    return this.quota.usage(project);
  }

  @Get()
  @Auth('secret')
  @ApiOperation({ summary: 'List what was sent, newest first, by user, audience, status or category.' })
  @ApiEnvelope(SentNotificationDto, { paged: true })
  @ApiErrors('VALIDATION_ERROR')
  listNotifications(@CurrentProject() project: ProjectRef, @Query() query: ListNotificationsQueryDto): Promise<Paged<SentNotificationDto>> {
    return this.management.listNotifications(project, query);
  }
}
