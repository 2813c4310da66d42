import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentProject } from '../../auth/current.decorators';
import { ApiEnvelope, ApiErrors } from '../../common/http/api-docs';
import type { Paged } from '../../common/http/reply';
import { Auth } from '../../common/http/route-policy';
import type { ProjectRef } from '../../projects/project-ref';
import { DeliveriesService } from './deliveries.service';
import { ListDeliveriesQueryDto, RecoverDeliveriesDto } from './dto/delivery-inputs.dto';
import { RecoverResultDto, WebhookDeliveryDto, WebhookTestResultDto } from './dto/delivery.dto';

const ENDPOINT_ID = { name: 'id', example: 'we_01JD3Z4Q9X8V7T6S5R4Q3P2N1M' };

@ApiTags('Webhooks')
@Controller('v1/webhooks/:id')
export class DeliveriesController {
  constructor(private readonly deliveries: DeliveriesService) {}

  @Get('deliveries')
  @Auth('secret')
  @ApiOperation({ summary: "The endpoint's deliveries of the last 30 days, newest first: what was sent, what it answered, the next try." })
  @ApiParam(ENDPOINT_ID)
  @ApiEnvelope(WebhookDeliveryDto, { paged: true })
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND')
  listDeliveries(
    @CurrentProject() project: ProjectRef,
    @Param('id') id: string,
    @Query() query: ListDeliveriesQueryDto,
  ): Promise<Paged<WebhookDeliveryDto>> {
    return this.deliveries.list(project, id, query);
  }

  @Post('deliveries/:delivery_id/retry')
  @HttpCode(200)
  @Auth('secret')
  @ApiOperation({ summary: 'Redeliver now (same event id, fresh retry schedule) and answer the delivery after that attempt.' })
  @ApiParam(ENDPOINT_ID)
  @ApiParam({ name: 'delivery_id', example: 'whd_01JD3Z4Q9X8V7T6S5R4Q3P2N1M' })
  @ApiEnvelope(WebhookDeliveryDto)
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND')
  retryDelivery(
    @CurrentProject() project: ProjectRef,
    @Param('id') id: string,
    @Param('delivery_id') deliveryId: string,
  ): Promise<WebhookDeliveryDto> {
    return this.deliveries.retry(project, id, deliveryId);
  }

  @Post('recover')
  @HttpCode(200)
  @Auth('secret')
  @ApiOperation({ summary: 'Redeliver every failed delivery created since a time, e.g. after fixing a broken receiver.' })
  @ApiParam(ENDPOINT_ID)
  @ApiEnvelope(RecoverResultDto)
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND')
  recoverDeliveries(
    @CurrentProject() project: ProjectRef,
    @Param('id') id: string,
    @Body() body: RecoverDeliveriesDto,
  ): Promise<RecoverResultDto> {
    return this.deliveries.recover(project, id, body);
  }

  @Post('test')
  @HttpCode(200)
  @Auth('secret')
  @ApiOperation({ summary: 'Send a signed `webhook.test` event now and answer the outcome of that one attempt (not stored, not retried).' })
  @ApiParam(ENDPOINT_ID)
  @ApiEnvelope(WebhookTestResultDto)
  @ApiErrors('NOT_FOUND', 'SEALED_VALUE_UNREADABLE')
  testEndpoint(@CurrentProject() project: ProjectRef, @Param('id') id: string): Promise<WebhookTestResultDto> {
    return this.deliveries.test(project, id);
  }
}
