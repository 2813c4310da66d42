import { Body, Controller, Delete, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { EndUser } from '../../auth/caller';
import { CurrentEndUser, CurrentProject } from '../../auth/current.decorators';
import { ApiEnvelope, ApiErrors } from '../../common/http/api-docs';
import { PathId } from '../../common/http/path-param.pipe';
import { Auth } from '../../common/http/route-policy';
import type { ProjectRef } from '../../projects/project-ref';
import { EngagementAddress } from '../engagement/engagement-address';
import { WidgetAnnouncementAnswerDto, WidgetEntriesDto, WidgetReactionsDto, WidgetRecordedDto, WidgetUnseenDto } from './dto/widget.dto';
import {
  WidgetClickDto,
  WidgetEntriesQueryDto,
  WidgetReactionDto,
  WidgetReaderDto,
  WidgetSeenDto,
  WidgetUnseenQueryDto,
} from './dto/widget-input.dto';
import { ReactionsService } from './reactions.service';
import { WidgetService } from './widget.service';

// A browser names its person with user_id + user_hash (never anonymous with a bad hash) or not at all.
const WIDGET_READER = { userHash: 'required', endUser: 'optional' } as const;

/**
 * The changelog widget (spec: Widget endpoints): the publishable key from any origin, limited per
 * IP address; the reader is a verified user, a browser's client id, or anonymous.
 */
@ApiTags('Changelog: widget')
@Controller('v1/changelog/widget')
export class WidgetController {
  constructor(
    private readonly widget: WidgetService,
    private readonly reactions: ReactionsService,
  ) {}

  @Get('entries')
  @Auth('publishable', WIDGET_READER)
  @ApiOperation({
    summary:
      "What this reader may see: the first page lists pinned entries apart; the rest newest first, paged by cursor. Also the reader's unseen count, the announcement, the labels in use, the reaction set and the project's widget settings.",
  })
  @ApiEnvelope(WidgetEntriesDto)
  @ApiErrors('VALIDATION_ERROR', 'USER_HASH_INVALID')
  listWidgetEntries(
    @CurrentProject() project: ProjectRef,
    @CurrentEndUser() endUser: EndUser | null,
    @Query() query: WidgetEntriesQueryDto,
  ): Promise<WidgetEntriesDto> {
    return this.widget.listEntries(project, endUser, query);
  }

  @Get('unseen')
  @Auth('publishable', WIDGET_READER)
  @ApiOperation({
    summary:
      'The launcher badge: entries a verified user has not been shown, or for an anonymous browser those published after `since` (the last 90 days at most; at most 100).',
  })
  @ApiEnvelope(WidgetUnseenDto)
  @ApiErrors('VALIDATION_ERROR', 'USER_HASH_INVALID')
  countUnseenEntries(
    @CurrentProject() project: ProjectRef,
    @CurrentEndUser() endUser: EndUser | null,
    @Query() query: WidgetUnseenQueryDto,
  ): Promise<WidgetUnseenDto> {
    return this.widget.unseen(project, endUser, query);
  }

  @Post('seen')
  @HttpCode(200)
  @Auth('publishable', WIDGET_READER)
  @ApiOperation({
    summary:
      'The widget showed these entries: each counts a view; a verified user has now seen them on every device (and is not announced them again); `first_time_ids` of an anonymous browser count as anonymous readers.',
  })
  @ApiEnvelope(WidgetRecordedDto)
  @ApiErrors('VALIDATION_ERROR', 'USER_HASH_INVALID', 'PAYLOAD_TOO_LARGE')
  recordWidgetSeen(
    @CurrentProject() project: ProjectRef,
    @CurrentEndUser() endUser: EndUser | null,
    @Body() body: WidgetSeenDto,
    @EngagementAddress() address: string,
  ): Promise<WidgetRecordedDto> {
    return this.widget.seen(project, endUser, body, address);
  }

  @Get('announcement')
  @Auth('publishable', WIDGET_READER)
  @ApiOperation({
    summary:
      "The entry to announce to this reader now, or null: the project's live announcement, unless this verified user was shown it. An anonymous browser stores `once_key`.",
  })
  @ApiEnvelope(WidgetAnnouncementAnswerDto)
  @ApiErrors('VALIDATION_ERROR', 'USER_HASH_INVALID')
  getAnnouncement(
    @CurrentProject() project: ProjectRef,
    @CurrentEndUser() endUser: EndUser | null,
    @Query() query: WidgetReaderDto,
  ): Promise<WidgetAnnouncementAnswerDto> {
    return this.widget.announcement(project, endUser, query);
  }

  @Post('entries/:id/reactions')
  @HttpCode(200)
  @Auth('publishable', WIDGET_READER)
  @ApiOperation({
    summary: "React to an entry; a person's new reaction replaces their old one. The person is the verified user, else the client_id.",
  })
  @ApiEnvelope(WidgetReactionsDto)
  @ApiErrors('VALIDATION_ERROR', 'USER_HASH_INVALID', 'NOT_FOUND', 'PAYLOAD_TOO_LARGE')
  reactToEntry(
    @CurrentProject() project: ProjectRef,
    @CurrentEndUser() endUser: EndUser | null,
    @PathId('id', 'ce') entryId: string,
    @Body() body: WidgetReactionDto,
    @EngagementAddress() address: string,
  ): Promise<WidgetReactionsDto> {
    return this.reactions.react(project, endUser, entryId, body, address);
  }

  @Delete('entries/:id/reactions')
  @Auth('publishable', WIDGET_READER)
  @ApiOperation({ summary: 'Take a reaction back; one the person does not hold changes nothing.' })
  @ApiEnvelope(WidgetReactionsDto)
  @ApiErrors('VALIDATION_ERROR', 'USER_HASH_INVALID', 'NOT_FOUND', 'PAYLOAD_TOO_LARGE')
  takeBackReaction(
    @CurrentProject() project: ProjectRef,
    @CurrentEndUser() endUser: EndUser | null,
    @PathId('id', 'ce') entryId: string,
    @Body() body: WidgetReactionDto,
  ): Promise<WidgetReactionsDto> {
    return this.reactions.takeBack(project, endUser, entryId, body);
  }

  @Post('entries/:id/click')
  @HttpCode(200)
  @Auth('publishable', WIDGET_READER)
  @ApiOperation({ summary: "Count a press of the entry's button." })
  @ApiEnvelope(WidgetRecordedDto)
  @ApiErrors('VALIDATION_ERROR', 'USER_HASH_INVALID', 'NOT_FOUND', 'PAYLOAD_TOO_LARGE')
  recordWidgetClick(
    @CurrentProject() project: ProjectRef,
    @CurrentEndUser() endUser: EndUser | null,
    @PathId('id', 'ce') entryId: string,
    @Body() body: WidgetClickDto,
    @EngagementAddress() address: string,
  ): Promise<WidgetRecordedDto> {
    return this.widget.click(project, endUser, entryId, body, address);
  }
}
