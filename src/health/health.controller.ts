import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth } from '../common/http/route-policy';
import { ApiEnvelope, ApiErrors } from '../common/http/api-docs';
import { ApiError } from '../common/errors/api-error';
import { Database } from '../infra/database/database';
import { HealthDto } from './dto/health.dto';

@ApiTags('Project')
@Controller('v1')
export class HealthController {
  constructor(private readonly db: Database) {}

  @Get('_health')
  @Auth('none')
  @ApiOperation({ summary: 'Liveness and database check. No key.' })
  @ApiEnvelope(HealthDto)
  @ApiErrors('SERVICE_UNAVAILABLE')
  async health(): Promise<HealthDto> {
    try {
      await this.db.manager.query('SELECT 1');
    } catch (error) {
      throw new ApiError('SERVICE_UNAVAILABLE', 'The database does not answer.', { cause: error });
    }
    return { status: 'ok', database: 'ok' };
  }
}
