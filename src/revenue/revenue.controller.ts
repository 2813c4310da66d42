import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentProject } from '../auth/current.decorators';
import { ApiEnvelope, ApiErrors } from '../common/http/api-docs';
import { PathId } from '../common/http/path-param.pipe';
import { WithMeta } from '../common/http/reply';
import { Auth } from '../common/http/route-policy';
import type { ProjectRef } from '../projects/project-ref';
import { RequiresFeature } from '../projects/requires-feature';
import { ConnectProcessorDto } from './dto/connect-processor.dto';
import { DisconnectedDto, ProcessorConnectionDto, SyncStartedDto } from './dto/processor-connection.dto';
import { CustomerRevenueDto, RevenueFiguresDto, RevenueHistoryDto } from './dto/revenue-figures.dto';
import { RevenueHistoryQueryDto } from './dto/revenue-history-query.dto';
import { RevenueConnectionService } from './revenue-connection.service';
import { REVENUE_METHOD, RevenueFiguresService } from './revenue-figures.service';

const METHOD_META = {
  meta: {
    method: { type: 'string', description: 'How every figure was computed (docs/revenue.md, "The method").', example: REVENUE_METHOD },
  },
};

export const CONNECT_SUMMARY =
  'Connects a restricted read-only key of the payment processor (rk_live_ or rk_test_). The key is checked with one read of each list the sync needs, sealed at rest and never shown again; a backfill starts at once.';
export const CONNECT_ERRORS = [
  'VALIDATION_ERROR',
  'PROCESSOR_KEY_NOT_RESTRICTED',
  'PROCESSOR_KEY_INVALID',
  'PROCESSOR_KEY_MISSING_PERMISSION',
  'PROCESSOR_ALREADY_CONNECTED',
  'PROCESSOR_CONNECTION_LIMIT_REACHED',
  'PROCESSOR_CONNECT_NOT_CONFIGURED',
  'PROCESSOR_UNAVAILABLE',
] as const;
export const GET_CONNECTION_SUMMARY =
  "The connection: provider, the key's last four characters and mode, the permissions found, when it was connected, and the sync's state, progress and last error.";
export const DISCONNECT_SUMMARY = 'Disconnects: deletes the sealed key and everything synced through it, and clears `paying` on contacts.';
export const SYNC_SUMMARY =
  'Runs a sync now: brings the queued run forward (a running one continues), or queues one. Watch it with GET /v1/revenue/connection.';

@ApiTags('Revenue')
@Controller('v1/revenue')
export class RevenueController {
  constructor(
    private readonly connections: RevenueConnectionService,
    private readonly figures: RevenueFiguresService,
  ) {}

  @Get()
  @Auth('secret')
  @RequiresFeature('revenue')
  @ApiOperation({
    summary:
      "Per currency: MRR, ARR, paying customers, active subscriptions, and this month's new, expansion, contraction, churned and reactivated MRR, as of the last sync. `meta.method` says how.",
  })
  @ApiEnvelope(RevenueFiguresDto, METHOD_META)
  @ApiErrors('PROCESSOR_NOT_CONNECTED')
  getRevenue(@CurrentProject() project: ProjectRef): Promise<WithMeta<RevenueFiguresDto>> {
    return this.figures.getRevenue(project);
  }

  @Get('history')
  @Auth('secret')
  @RequiresFeature('revenue')
  @ApiOperation({ summary: 'The same figures per UTC calendar month, oldest first; MRR at the end of each month.' })
  @ApiEnvelope(RevenueHistoryDto, METHOD_META)
  @ApiErrors('VALIDATION_ERROR', 'PROCESSOR_NOT_CONNECTED')
  getRevenueHistory(@CurrentProject() project: ProjectRef, @Query() query: RevenueHistoryQueryDto): Promise<WithMeta<RevenueHistoryDto>> {
    return this.figures.getRevenueHistory(project, query.months);
  }

  @Get('customers/:contact_id')
  @Auth('secret')
  @RequiresFeature('revenue')
  @ApiOperation({
    summary:
      "The per-subscription lines that make up one contact's MRR: items, quantities, discounts, and why a subscription does not count.",
  })
  @ApiEnvelope(CustomerRevenueDto, METHOD_META)
  @ApiErrors('CONTACT_NOT_FOUND', 'PROCESSOR_NOT_CONNECTED')
  getCustomerRevenue(
    @CurrentProject() project: ProjectRef,
    @PathId('contact_id', 'ct', { notFound: 'CONTACT_NOT_FOUND' }) contactId: string,
  ): Promise<WithMeta<CustomerRevenueDto>> {
    return this.figures.getCustomerRevenue(project, contactId);
  }

  @Put('connection')
  @Auth('secret')
  @RequiresFeature('revenue')
  @ApiOperation({ summary: CONNECT_SUMMARY })
  @ApiEnvelope(ProcessorConnectionDto)
  @ApiErrors(...CONNECT_ERRORS)
  connectProcessor(@CurrentProject() project: ProjectRef, @Body() body: ConnectProcessorDto): Promise<ProcessorConnectionDto> {
    return this.connections.connectProcessor(project, body);
  }

  @Get('connection')
  @Auth('secret')
  @RequiresFeature('revenue')
  @ApiOperation({ summary: GET_CONNECTION_SUMMARY })
  @ApiEnvelope(ProcessorConnectionDto)
  @ApiErrors('PROCESSOR_NOT_CONNECTED')
  getProcessorConnection(@CurrentProject() project: ProjectRef): Promise<ProcessorConnectionDto> {
    return this.connections.getConnection(project);
  }

  @Delete('connection')
  @Auth('secret')
  @ApiOperation({ summary: DISCONNECT_SUMMARY })
  @ApiEnvelope(DisconnectedDto)
  @ApiErrors('PROCESSOR_NOT_CONNECTED')
  disconnectProcessor(@CurrentProject() project: ProjectRef): Promise<DisconnectedDto> {
    return this.connections.disconnectProcessor(project);
  }

  @Post('sync')
  @HttpCode(202)
  @Auth('secret')
  @RequiresFeature('revenue')
  @ApiOperation({ summary: SYNC_SUMMARY })
  @ApiEnvelope(SyncStartedDto, { status: 202 })
  @ApiErrors('PROCESSOR_NOT_CONNECTED')
  startRevenueSync(@CurrentProject() project: ProjectRef): Promise<SyncStartedDto> {
    return this.connections.startSync(project);
  }
}
