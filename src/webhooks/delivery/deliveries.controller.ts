import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentProject } from '../../auth/current.decorators';
import { ApiEnvelope, ApiErrors } from '../../common/http/api-docs';
import { PathId } from '../../common/http/path-param.pipe';
import type { Paged } from '../../common/http/reply';
import { Auth } from '../../common/http/route-policy';
import type { ProjectRef } from '../../projects/project-ref';
import { DeliveriesService } from './deliveries.service';
import { ListDeliveriesQueryDto, RecoverDeliveriesDto } from './dto/delivery-inputs.dto';
import { RecoverResultDto, WebhookDeliveryDto, WebhookTestResultDto } from './dto/delivery.dto';

@ApiTags('Webhooks')
@Controller('v1/webhooks/:id')
export class DeliveriesController {
  constructor(private readonly deliveries: DeliveriesService) {}

  @Get('deliveries')
  @Auth('secret')
  @ApiOperation({
    summary: "The endpoint's deliveries of the last 30 days, newest first: what was sent, what it answered, every attempt, the next try.",
  })
  @ApiEnvelope(WebhookDeliveryDto, { paged: true })
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND')
  listDeliveries(
    @CurrentProject() project: ProjectRef,
    @PathId('id', 'we') id: string,
    @Query() query: ListDeliveriesQueryDto,
  ): Promise<Paged<WebhookDeliveryDto>> {
    return this.deliveries.list(project, id, query);
  }

  @Get('deliveries/:delivery_id')
  @Auth('secret')
  @ApiOperation({ summary: 'One delivery of the last 30 days, with every attempt: when it was sent, what came back, how long it took.' })
  @ApiEnvelope(WebhookDeliveryDto)
  @ApiErrors('NOT_FOUND')
  getDelivery(
    @CurrentProject() project: ProjectRef,
    @PathId('id', 'we') id: string,
    @PathId('delivery_id', 'whd') deliveryId: string,
  ): Promise<WebhookDeliveryDto> {
    return this.deliveries.get(project, id, deliveryId);
  }

  @Post('deliveries/:delivery_id/retry')
  @HttpCode(200)
  @Auth('secret')
  @ApiOperation({ summary: 'Redeliver now (same event id, fresh retry schedule) and answer the delivery after that attempt.' })
  @ApiEnvelope(WebhookDeliveryDto)
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND')
  retryDelivery(
    @CurrentProject() project: ProjectRef,
    @PathId('id', 'we') id: string,
    @PathId('delivery_id', 'whd') deliveryId: string,
  ): Promise<WebhookDeliveryDto> {
    return this.deliveries.retry(project, id, deliveryId);
  }

  @Post('recover')
  @HttpCode(200)
  @Auth('secret')
  @ApiOperation({ summary: 'Redeliver every failed delivery created since a time, e.g. after fixing a broken receiver.' })
  @ApiEnvelope(RecoverResultDto)
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND')
  recoverDeliveries(
    @CurrentProject() project: ProjectRef,
    @PathId('id', 'we') id: string,
    @Body() body: RecoverDeliveriesDto,
  ): Promise<RecoverResultDto> {
    return this.deliveries.recover(project, id, body);
  }

  @Post('test')
  @HttpCode(200)
  @Auth('secret')
  @ApiOperation({ summary: 'Send a signed `webhook.test` event now and answer the outcome of that one attempt (not stored, not retried).' })
  @ApiEnvelope(WebhookTestResultDto)
  @ApiErrors('NOT_FOUND', 'SEALED_VALUE_UNREADABLE')
  testEndpoint(@CurrentProject() project: ProjectRef, @PathId('id', 'we') id: string): Promise<WebhookTestResultDto> {
    return this.deliveries.test(project, id);
  }
}
