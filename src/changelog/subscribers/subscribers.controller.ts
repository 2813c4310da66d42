import { Body, Controller, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Caller } from '../../auth/caller';
import { CurrentCaller, CurrentProject } from '../../auth/current.decorators';
import { ApiEnvelope, ApiErrors } from '../../common/http/api-docs';
import { PathId, PathParam } from '../../common/http/path-param.pipe';
import { Paged } from '../../common/http/reply';
import { Auth } from '../../common/http/route-policy';
import { Idempotent } from '../../idempotency/idempotent.decorator';
import type { ProjectRef } from '../../projects/project-ref';
import { CreateSubscriberDto } from './dto/create-subscriber.dto';
import { ListSubscribersQueryDto } from './dto/list-subscribers-query.dto';
import { SetSubscriberLabelsDto, SubscriberLabelsDto } from './dto/subscriber-labels.dto';
import { SubscriberDto } from './dto/subscriber.dto';
import { SubscribersService } from './subscribers.service';
import { LINK_TOKEN_PARAM } from '../../common/email-links/link-tokens';

@ApiTags('Changelog')
@Controller('v1/changelog/subscribers')
export class SubscribersController {
  constructor(private readonly subscribers: SubscribersService) {}

  @Post()
  @Auth('publishable')
  @Idempotent()
  @ApiOperation({
    summary:
      'Subscribe an email to changelog emails. With a secret key the subscriber is confirmed at once (and changelog.subscriber.created is sent); with a publishable key it gets a confirmation email and is confirmed (and the event sent) when the person follows the link.',
  })
  @ApiEnvelope(SubscriberDto, { status: 201 })
  @ApiErrors('VALIDATION_ERROR', 'ALREADY_SUBSCRIBED', 'PLAN_LIMIT_REACHED', 'PAYLOAD_TOO_LARGE')
  createSubscriber(
    @CurrentProject() project: ProjectRef,
    @CurrentCaller() caller: Caller,
    @Body() body: CreateSubscriberDto,
  ): Promise<SubscriberDto> {
    return this.subscribers.createSubscriber(project, body, caller.kind);
  }

  @Get()
  @Auth('secret')
  @ApiOperation({ summary: 'List subscribers, newest first; with `label`, those who chose that label.' })
  @ApiEnvelope(SubscriberDto, { paged: true })
  @ApiErrors('VALIDATION_ERROR')
  listSubscribers(@CurrentProject() project: ProjectRef, @Query() query: ListSubscribersQueryDto): Promise<Paged<SubscriberDto>> {
    return this.subscribers.listSubscribers(project, query);
  }

  @Put(':subscriber_id/labels')
  @Auth('secret')
  @ApiOperation({ summary: 'Replace the labels a subscriber follows; an empty list means every public entry.' })
  @ApiEnvelope(SubscriberLabelsDto)
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND', 'PAYLOAD_TOO_LARGE')
  setSubscriberLabels(
    @CurrentProject() project: ProjectRef,
    @PathId('subscriber_id', 'sub') subscriberId: string,
    @Body() body: SetSubscriberLabelsDto,
  ): Promise<SubscriberLabelsDto> {
    return this.subscribers.setSubscriberLabels(project, subscriberId, body.labels);
  }

  @Put('by-token/:token/labels')
  @HttpCode(200)
  @Auth('none', { browser: true })
  @ApiOperation({
    summary:
      'The subscriber changes their own topics, with the token of the "Choose your topics" link in any changelog email (no key). An empty list means every public entry.',
  })
  @ApiEnvelope(SubscriberLabelsDto)
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND', 'PAYLOAD_TOO_LARGE')
  setSubscriberLabelsByToken(
    @PathParam('token', LINK_TOKEN_PARAM, { description: 'The `token` of the topics link of a changelog email.' }) token: string,
    @Body() body: SetSubscriberLabelsDto,
  ): Promise<SubscriberLabelsDto> {
    return this.subscribers.setSubscriberLabelsByToken(token, body.labels);
  }
}
