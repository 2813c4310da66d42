import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth } from '../common/http/route-policy';
import { ApiEnvelope, ApiErrors } from '../common/http/api-docs';
import { OUTAGE_RETRY_AFTER_SECONDS } from '../common/http/backend-outage';
import { ApiError } from '../common/errors/api-error';
import { Database } from '../infra/database/database.service';
import { HealthDto } from './dto/health.dto';
import { pingDatabase } from './health.queries';

// A load balancer's probe must get an answer quickly, whatever the database's own deadlines are.
const HEALTH_DEADLINE_MS = 1_500;

@ApiTags('Project')
@Controller('v1')
export class HealthController {
  constructor(private readonly db: Database) {}

  @Get('_health')
  @Auth('none')
  @ApiOperation({
    summary: 'Liveness and database check. No key.',
    description: `503 SERVICE_UNAVAILABLE (with Retry-After) when the database does not answer within ${HEALTH_DEADLINE_MS} ms.`,
  })
  @ApiEnvelope(HealthDto)
  @ApiErrors('SERVICE_UNAVAILABLE')
  async health(): Promise<HealthDto> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${HEALTH_DEADLINE_MS} ms`)), HEALTH_DEADLINE_MS);
    });
    // The query may go on after the deadline; its own deadlines end it.
    const query = pingDatabase(this.db.manager);
    query.catch(() => undefined);
    try {
      await Promise.race([query, deadline]);
    } catch (error) {
      throw new ApiError('SERVICE_UNAVAILABLE', 'The database does not answer.', {
        cause: error,
        headers: { 'Retry-After': String(OUTAGE_RETRY_AFTER_SECONDS) },
      });
    } finally {
      clearTimeout(timer);
    }
    return { status: 'ok', database: 'ok' };
  }
}
