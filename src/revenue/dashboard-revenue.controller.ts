import { Body, Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentProject } from '../auth/current.decorators';
import { ApiEnvelope, ApiErrors } from '../common/http/api-docs';
import { Auth } from '../common/http/route-policy';
import type { ProjectRef } from '../projects/project-ref';
import { RequiresFeature } from '../projects/requires-feature';
import { ConnectProcessorDto } from './dto/connect-processor.dto';
import { DisconnectedDto, ProcessorConnectionDto, SyncStartedDto } from './dto/processor-connection.dto';
import { RevenueConnectionService } from './revenue-connection.service';
import { CONNECT_ERRORS, CONNECT_SUMMARY, DISCONNECT_SUMMARY, GET_CONNECTION_SUMMARY, SYNC_SUMMARY } from './revenue.controller';

const PROJECT_HEADER_DOC = { name: 'X-Service-Project', required: true, description: 'The id of one of your projects.' };

/** The processor connection from the dashboard: the same answers as the secret-key routes, for the project in X-Service-Project. */
@ApiTags('Dashboard')
@ApiHeader(PROJECT_HEADER_DOC)
@Controller('v1/dashboard/revenue')
export class DashboardRevenueController {
  constructor(private readonly connections: RevenueConnectionService) {}

  @Put('connection')
  @Auth('dashboard')
  @RequiresFeature('revenue')
  @ApiOperation({ summary: CONNECT_SUMMARY })
  @ApiEnvelope(ProcessorConnectionDto)
  @ApiErrors(...CONNECT_ERRORS)
  connectDashboardProcessor(@CurrentProject() project: ProjectRef, @Body() body: ConnectProcessorDto): Promise<ProcessorConnectionDto> {
    return this.connections.connectProcessor(project, body);
  }

  @Get('connection')
  @Auth('dashboard')
  @RequiresFeature('revenue')
  @ApiOperation({ summary: GET_CONNECTION_SUMMARY })
  @ApiEnvelope(ProcessorConnectionDto)
  @ApiErrors('PROCESSOR_NOT_CONNECTED')
  getDashboardProcessorConnection(@CurrentProject() project: ProjectRef): Promise<ProcessorConnectionDto> {
    return this.connections.getConnection(project);
  }

  @Delete('connection')
  @Auth('dashboard')
  @ApiOperation({ summary: DISCONNECT_SUMMARY })
  @ApiEnvelope(DisconnectedDto)
  @ApiErrors('PROCESSOR_NOT_CONNECTED')
  disconnectDashboardProcessor(@CurrentProject() project: ProjectRef): Promise<DisconnectedDto> {
    return this.connections.disconnectProcessor(project);
  }

  @Post('sync')
  @HttpCode(202)
  @Auth('dashboard')
  @RequiresFeature('revenue')
  @ApiOperation({ summary: SYNC_SUMMARY })
  @ApiEnvelope(SyncStartedDto, { status: 202 })
  @ApiErrors('PROCESSOR_NOT_CONNECTED')
  startDashboardRevenueSync(@CurrentProject() project: ProjectRef): Promise<SyncStartedDto> {
    return this.connections.startSync(project);
  }
}
