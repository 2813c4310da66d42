import { Body, Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentProject } from '../auth/current.decorators';
import { ApiEnvelope, ApiErrors } from '../common/http/api-docs';
import { Auth } from '../common/http/route-policy';
import type { ProjectRef } from '../projects/project-ref';
import { RequiresFeature } from '../projects/requires-feature';
import { ConnectProcessorDto } from './dto/connect-processor.dto';
import { DisconnectedDto, ProcessorConnectionDto, SyncStartedDto } from './dto/processor-connection.dto';
import { RevenueConnectionService } from './revenue-connection.service';

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
  constructor(private readonly connections: RevenueConnectionService) {}

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
