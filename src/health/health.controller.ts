import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { Auth } from '../common/http/route-policy';
import { ApiEnvelope, ApiErrors } from '../common/http/api-docs';
import { ApiError } from '../common/errors/api-error';
import { Database } from '../infra/database/database';

export class HealthDto {
  @ApiProperty({ enum: ['ok'] })
  status: 'ok';

  @ApiProperty({ enum: ['ok'], description: 'The database answered a query.' })
  database: 'ok';
}

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
