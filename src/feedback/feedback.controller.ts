import { Body, Controller, Get, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { PathId } from '../common/http/path-param.pipe';
import { Auth } from '../common/http/route-policy';
import { CurrentCaller, CurrentProject } from '../auth/current.decorators';
import { ApiEnvelope, ApiErrors } from '../common/http/api-docs';
import { Paged } from '../common/http/reply';
import type { Caller } from '../auth/caller';
import { Idempotent } from '../idempotency/idempotent.decorator';
import type { ProjectRef } from '../projects/project-ref';
import { CreateFeedbackDto } from './dto/create-feedback.dto';
import { FeedbackDetailDto, FeedbackDto } from './dto/feedback.dto';
import { ListFeedbackQueryDto } from './dto/list-feedback-query.dto';
import { FeedbackService } from './feedback.service';

@ApiTags('Feedback')
@Controller('v1/feedback')
export class FeedbackController {
  constructor(private readonly feedback: FeedbackService) {}

  @Post()
  @Auth('publishable')
  @Idempotent()
  @ApiOperation({
    summary: 'Send feedback. It is classified on arrival; the answer never contains the email (has_email says whether one was given).',
  })
  @ApiEnvelope(FeedbackDto, { status: 201 })
  @ApiErrors('VALIDATION_ERROR', 'PAYLOAD_TOO_LARGE')
  createFeedback(
    @CurrentProject() project: ProjectRef,
    @CurrentCaller() caller: Caller,
    @Body() body: CreateFeedbackDto,
  ): Promise<FeedbackDto> {
    return this.feedback.createFeedback(project, body, caller.kind);
  }

  @Get()
  @Auth('secret')
  @ApiOperation({
    summary:
      'List feedback, newest first, filtered by changelog entry, classification, user id or creation time. Items carry has_email, not the email.',
  })
  @ApiEnvelope(FeedbackDto, { paged: true })
  @ApiErrors('VALIDATION_ERROR')
  listFeedback(@CurrentProject() project: ProjectRef, @Query() query: ListFeedbackQueryDto): Promise<Paged<FeedbackDto>> {
    return this.feedback.listFeedback(project, query);
  }

  @Get(':feedback_id')
  @Auth('secret')
  @ApiOperation({ summary: "One feedback record, including the submitter's email." })
  @ApiEnvelope(FeedbackDetailDto)
  @ApiErrors('NOT_FOUND')
  getFeedback(@CurrentProject() project: ProjectRef, @PathId('feedback_id', 'fb') feedbackId: string): Promise<FeedbackDetailDto> {
    return this.feedback.getFeedback(project, feedbackId);
  }
}
