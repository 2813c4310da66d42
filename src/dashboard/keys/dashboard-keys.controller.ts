import { Body, Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentProject } from '../../auth/current.decorators';
import { ApiEnvelope, ApiErrors } from '../../common/http/api-docs';
import { PathId } from '../../common/http/path-param.pipe';
import { Auth } from '../../common/http/route-policy';
import { Idempotent } from '../../idempotency/idempotent.decorator';
import type { ProjectRef } from '../../projects/project-ref';
import { DashboardKeysService } from './dashboard-keys.service';
import { CreateKeyDto, CreatedKeyDto, KeyDto } from './dto/key.dto';

const PROJECT_HEADER_DOC = { name: 'X-Service-Project', required: true, description: 'The id of one of your projects.' };

/** The API keys of the project named in X-Service-Project (issue 14 item 3). */
@ApiTags('Dashboard')
@ApiHeader(PROJECT_HEADER_DOC)
@Controller('v1/dashboard/keys')
export class DashboardKeysController {
  constructor(private readonly keys: DashboardKeysService) {}

  @Get()
  @Auth('dashboard')
  @ApiOperation({ summary: "The project's keys, live and test, newest first: prefix and last four only, never a full key." })
  @ApiEnvelope(KeyDto, { isArray: true })
  listKeys(@CurrentProject() project: ProjectRef): Promise<KeyDto[]> {
    return this.keys.listKeys(project);
  }

  @Post()
  @Auth('dashboard')
  @Idempotent({ secretInAnswer: true })
  @ApiOperation({
    summary: 'Create a key; the full key is in this answer only. The plan caps active keys per type (secret and publishable apart).',
  })
  @ApiEnvelope(CreatedKeyDto, { status: 201 })
  @ApiErrors('VALIDATION_ERROR', 'API_KEY_LIMIT_REACHED', 'IDEMPOTENCY_CONFLICT', 'PAYLOAD_TOO_LARGE')
  createKey(@CurrentProject() project: ProjectRef, @Body() body: CreateKeyDto): Promise<CreatedKeyDto> {
    return this.keys.createKey(project, body);
  }

  @Delete(':id')
  @Auth('dashboard')
  @ApiOperation({
    summary: 'Revoke a key: it is refused from the next request on, everywhere. Revoking again keeps the first revocation time.',
  })
  @ApiEnvelope(KeyDto)
  @ApiErrors('NOT_FOUND')
  deleteKey(@CurrentProject() project: ProjectRef, @PathId('id', 'key') id: string): Promise<KeyDto> {
    return this.keys.revokeKey(project, id);
  }

  @Post(':id/revoke')
  @HttpCode(200)
  @Auth('dashboard')
  @ApiOperation({ summary: 'Revoke a key (the same as DELETE, for clients that cannot send DELETE).' })
  @ApiEnvelope(KeyDto)
  @ApiErrors('NOT_FOUND')
  revokeKey(@CurrentProject() project: ProjectRef, @PathId('id', 'key') id: string): Promise<KeyDto> {
    return this.keys.revokeKey(project, id);
  }
}
