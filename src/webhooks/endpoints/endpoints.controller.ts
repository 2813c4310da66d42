import { Body, Controller, Delete, Get, HttpCode, Patch, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentProject } from '../../auth/current.decorators';
import { ApiEnvelope, ApiErrors } from '../../common/http/api-docs';
import { PathId } from '../../common/http/path-param.pipe';
import { Auth } from '../../common/http/route-policy';
import { Idempotent } from '../../idempotency/idempotent.decorator';
import type { ProjectRef } from '../../projects/project-ref';
import { CreateEndpointDto } from './dto/create-endpoint.dto';
import { DeletedEndpointDto } from './dto/deleted-endpoint.dto';
import { CreatedEndpointDto, EndpointDto, EndpointListDto, RotatedEndpointDto } from './dto/endpoint.dto';
import { UpdateEndpointDto } from './dto/update-endpoint.dto';
import { EndpointsService } from './endpoints.service';

@ApiTags('Webhooks')
@Controller('v1/webhooks')
export class EndpointsController {
  constructor(private readonly endpoints: EndpointsService) {}

  @Post()
  @Auth('secret')
  @Idempotent({ secretInAnswer: true })
  @ApiOperation({ summary: 'Add a webhook endpoint. The answer carries signing_secret, shown this once; later answers mask the URL.' })
  @ApiEnvelope(CreatedEndpointDto, { status: 201 })
  @ApiErrors('VALIDATION_ERROR', 'INVALID_WEBHOOK_URL', 'WEBHOOK_LIMIT_REACHED', 'PLAN_UPGRADE_REQUIRED')
  createWebhook(@CurrentProject() project: ProjectRef, @Body() body: CreateEndpointDto): Promise<CreatedEndpointDto> {
    return this.endpoints.createEndpoint(project, body);
  }

  @Get()
  @Auth('secret')
  @ApiOperation({
    summary: "The project's webhook endpoints (URLs masked, secrets never), the plan's endpoint limit and every subscribable event.",
  })
  @ApiEnvelope(EndpointListDto)
  listWebhooks(@CurrentProject() project: ProjectRef): Promise<EndpointListDto> {
    return this.endpoints.listEndpoints(project);
  }

  @Get(':id')
  @Auth('secret')
  @ApiOperation({ summary: 'One webhook endpoint, URL masked.' })
  @ApiEnvelope(EndpointDto)
  @ApiErrors('NOT_FOUND')
  getWebhook(@CurrentProject() project: ProjectRef, @PathId('id', 'we') id: string): Promise<EndpointDto> {
    return this.endpoints.getEndpoint(project, id);
  }

  @Patch(':id')
  @Auth('secret')
  @ApiOperation({
    summary: 'Change the URL, events or format, or switch the endpoint on (status enabled, which clears its failure count) or off.',
  })
  @ApiEnvelope(EndpointDto)
  @ApiErrors('NOT_FOUND', 'VALIDATION_ERROR', 'INVALID_WEBHOOK_URL', 'SEALED_VALUE_UNREADABLE')
  updateWebhook(
    @CurrentProject() project: ProjectRef,
    @PathId('id', 'we') id: string,
    @Body() body: UpdateEndpointDto,
  ): Promise<EndpointDto> {
    return this.endpoints.updateEndpoint(project, id, body);
  }

  @Delete(':id')
  @Auth('secret')
  @ApiOperation({ summary: 'Delete a webhook endpoint and its delivery log.' })
  @ApiEnvelope(DeletedEndpointDto)
  @ApiErrors('NOT_FOUND')
  deleteWebhook(@CurrentProject() project: ProjectRef, @PathId('id', 'we') id: string): Promise<DeletedEndpointDto> {
    return this.endpoints.deleteEndpoint(project, id);
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  @Auth('secret')
  @ApiOperation({ summary: 'Replace the signing secret. The new one is shown once; the old one keeps signing for 24 hours beside it.' })
  @ApiEnvelope(RotatedEndpointDto)
  @ApiErrors('NOT_FOUND')
  rotateWebhookSecret(@CurrentProject() project: ProjectRef, @PathId('id', 'we') id: string): Promise<RotatedEndpointDto> {
    return this.endpoints.rotateSecret(project, id);
  }
}
