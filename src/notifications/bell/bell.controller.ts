import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { EndUser } from '../../auth/caller';
import { CurrentEndUser, CurrentProject } from '../../auth/current.decorators';
import { ApiEnvelope, ApiErrors } from '../../common/http/api-docs';
import { IfNoneMatch } from '../../common/http/if-none-match.decorator';
import { PathId } from '../../common/http/path-param.pipe';
import type { Versioned, WithMeta } from '../../common/http/reply';
import { Auth } from '../../common/http/route-policy';
import type { ProjectRef } from '../../projects/project-ref';
import { ArchiveNotificationDto, BellTouchDto, ReactionDto, ReadAllDto, ReadAllResultDto, UnreadCountDto } from './dto/bell-bodies.dto';
import { VERIFICATION_OFF_WARNING } from './bell-meta';
import { BellNotificationDto } from './dto/bell-notification.dto';
import { InboxQueryDto, UnreadCountQueryDto, UnreadQueryDto } from './dto/bell-query.dto';
import { InboxService } from './inbox.service';
import { ReceiptsService } from './receipts.service';

const LIST_META = {
  unread_count: {
    type: 'integer',
    minimum: 0,
    example: 3,
    description: "The bell's badge: unread, unarchived notifications, whatever the filters.",
  },
  poll_interval_seconds: { type: 'integer', example: 20, description: 'How often to poll (the plan: Free 60, Indie 20, Builder 15).' },
  identity_verification: { type: 'string', enum: ['off'], description: 'Present when a legacy project answered without user_hash.' },
  warnings: {
    type: 'array',
    items: { type: 'string', example: VERIFICATION_OFF_WARNING },
    description: 'Present with identity_verification off.',
  },
};
/** The bell's reads answer conditional polls (bell-state.cache.ts): an unchanged bell is 304 without a body. */
const IF_NONE_MATCH = {
  name: 'If-None-Match',
  required: false,
  description: 'The ETag of the answer you hold; while the bell is unchanged the answer is 304 without a body.',
} as const;
const NOT_MODIFIED = { status: 304, description: 'Unchanged since the answer whose ETag you sent: keep showing it.' } as const;
const ITEM_META = { unread_count: LIST_META.unread_count, poll_interval_seconds: LIST_META.poll_interval_seconds };

/**
 * The bell (spec: Notifications → Bell calls): a browser with the publishable key, `user_id` and
 * `user_hash`, or the product's server with the secret key. Reads: inbox, unread, unread/count
 * (services in inbox.service.ts); writes: read, click, archive, read-all, reactions (receipts.service.ts).
 * click, archive and reactions always need the hash (`required`), like inbox, unread/count and
 * read-all: only `unread` and `{id}/read` are named by the spec as waived for legacy projects.
 */
@ApiTags('Notifications: bell')
@Controller('v1/notifications')
export class BellController {
  constructor(
    private readonly inbox: InboxService,
    private readonly receipts: ReceiptsService,
  ) {}

  @Get('inbox')
  @Auth('publishable', { userHash: 'required' })
  @ApiOperation({ summary: "A person's bell, newest first (pinned on top): their notifications and the broadcasts of the last 30 days." })
  @ApiEnvelope(BellNotificationDto, { isArray: true, meta: LIST_META })
  @ApiHeader(IF_NONE_MATCH)
  @ApiResponse(NOT_MODIFIED)
  @ApiErrors('RATE_LIMITED')
  listInbox(
    @CurrentProject() project: ProjectRef,
    @CurrentEndUser() user: EndUser,
    @Query() query: InboxQueryDto,
    @IfNoneMatch() ifNoneMatch: string | undefined,
  ): Promise<Versioned<BellNotificationDto[]>> {
    return this.inbox.listInbox(project, user, query, ifNoneMatch);
  }

  @Get('unread')
  @Auth('publishable', { userHash: 'unless_legacy' })
  @ApiOperation({ summary: "The unread part of a person's bell, newest first (pinned on top)." })
  @ApiEnvelope(BellNotificationDto, { isArray: true, meta: LIST_META })
  @ApiHeader(IF_NONE_MATCH)
  @ApiResponse(NOT_MODIFIED)
  @ApiErrors('RATE_LIMITED')
  listUnread(
    @CurrentProject() project: ProjectRef,
    @CurrentEndUser() user: EndUser,
    @Query() query: UnreadQueryDto,
    @IfNoneMatch() ifNoneMatch: string | undefined,
  ): Promise<Versioned<BellNotificationDto[]>> {
    return this.inbox.listUnread(project, user, query, ifNoneMatch);
  }

  @Get('unread/count')
  @Auth('publishable', { userHash: 'required' })
  @ApiOperation({ summary: "The bell's badge: how many of a person's notifications are unread." })
  @ApiEnvelope(UnreadCountDto, { meta: { poll_interval_seconds: LIST_META.poll_interval_seconds } })
  @ApiHeader(IF_NONE_MATCH)
  @ApiResponse(NOT_MODIFIED)
  @ApiErrors('RATE_LIMITED')
  countUnread(
    @CurrentProject() project: ProjectRef,
    @CurrentEndUser() user: EndUser,
    @Query() _query: UnreadCountQueryDto,
    @IfNoneMatch() ifNoneMatch: string | undefined,
  ): Promise<Versioned<UnreadCountDto>> {
    return this.inbox.countUnread(project, user, ifNoneMatch);
  }

  @Patch('read-all')
  @Auth('publishable', { userHash: 'required' })
  @ApiOperation({ summary: "Marks every notification of a person's bell read, or those of one category." })
  @ApiEnvelope(ReadAllResultDto, { meta: { poll_interval_seconds: LIST_META.poll_interval_seconds } })
  markAllRead(
    @CurrentProject() project: ProjectRef,
    @CurrentEndUser() user: EndUser,
    @Body() body: ReadAllDto,
  ): Promise<WithMeta<ReadAllResultDto>> {
    return this.receipts.markAllRead(project, user, body.category);
  }

  @Patch(':id/read')
  @Auth('publishable', { userHash: 'unless_legacy' })
  @ApiOperation({ summary: 'Marks one notification read for this person.' })
  @ApiEnvelope(BellNotificationDto, { meta: LIST_META })
  @ApiErrors('NOT_FOUND')
  markRead(
    @CurrentProject() project: ProjectRef,
    @CurrentEndUser() user: EndUser,
    @PathId('id', 'ntf') id: string,
    @Body() _body: BellTouchDto,
  ): Promise<WithMeta<BellNotificationDto>> {
    return this.receipts.markRead(project, user, id);
  }

  @Patch(':id/click')
  @Auth('publishable', { userHash: 'required' })
  @ApiOperation({ summary: 'Records a click on the notification or one of its buttons; also marks it read.' })
  @ApiEnvelope(BellNotificationDto, { meta: ITEM_META })
  @ApiErrors('NOT_FOUND')
  markClicked(
    @CurrentProject() project: ProjectRef,
    @CurrentEndUser() user: EndUser,
    @PathId('id', 'ntf') id: string,
    @Body() _body: BellTouchDto,
  ): Promise<WithMeta<BellNotificationDto>> {
    return this.receipts.markClicked(project, user, id);
  }

  @Patch(':id/archive')
  @Auth('publishable', { userHash: 'required' })
  @ApiOperation({ summary: 'Archives the notification for this person (also marks it read); `{archived: false}` restores it.' })
  @ApiEnvelope(BellNotificationDto, { meta: ITEM_META })
  @ApiErrors('NOT_FOUND')
  archiveNotification(
    @CurrentProject() project: ProjectRef,
    @CurrentEndUser() user: EndUser,
    @PathId('id', 'ntf') id: string,
    @Body() body: ArchiveNotificationDto,
  ): Promise<WithMeta<BellNotificationDto>> {
    return this.receipts.setArchived(project, user, id, body.archived ?? true);
  }

  @Post(':id/reactions')
  @HttpCode(200)
  @Auth('publishable', { userHash: 'required' })
  @ApiOperation({ summary: "Sets this person's reaction (one per person; a new one replaces the old); also marks it read." })
  @ApiEnvelope(BellNotificationDto, { meta: ITEM_META })
  @ApiErrors('NOT_FOUND')
  addReaction(
    @CurrentProject() project: ProjectRef,
    @CurrentEndUser() user: EndUser,
    @PathId('id', 'ntf') id: string,
    @Body() body: ReactionDto,
  ): Promise<WithMeta<BellNotificationDto>> {
    return this.receipts.react(project, user, id, body.reaction);
  }

  @Delete(':id/reactions')
  @Auth('publishable', { userHash: 'required' })
  @ApiOperation({ summary: "Removes this person's reaction." })
  @ApiEnvelope(BellNotificationDto, { meta: ITEM_META })
  @ApiErrors('NOT_FOUND')
  removeReaction(
    @CurrentProject() project: ProjectRef,
    @CurrentEndUser() user: EndUser,
    @PathId('id', 'ntf') id: string,
    @Query() _query: UnreadCountQueryDto,
  ): Promise<WithMeta<BellNotificationDto>> {
    return this.receipts.removeReaction(project, user, id);
  }
}
