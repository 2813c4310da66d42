import { Controller, Get } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth } from '../common/http/route-policy';
import { CurrentProject } from '../auth/current.decorators';
import { ApiEnvelope } from '../common/http/api-docs';
import { WithMeta } from '../common/http/reply';
import { SETUP_CHECK_META, SetupCheckDto } from '../projects/dto/setup-check.dto';
import type { ProjectRef } from '../projects/project-ref';
import { SetupCheckService } from '../projects/setup-check.service';

const PROJECT_HEADER_DOC = { name: 'X-Service-Project', required: true, description: 'The id of one of your projects.' };

/** Dashboard endpoints: a signed-in user's JWT; project-scoped ones name the project in a header. */
@ApiTags('Dashboard')
@Controller('v1/dashboard')
export class DashboardController {
  constructor(private readonly setupChecks: SetupCheckService) {}

  @Get('setup-check')
  @Auth('dashboard')
  @ApiHeader(PROJECT_HEADER_DOC)
  @ApiOperation({ summary: 'The setup check of the project named in X-Service-Project.' })
  @ApiEnvelope(SetupCheckDto, { meta: SETUP_CHECK_META })
  dashboardSetupCheck(@CurrentProject() project: ProjectRef): Promise<SetupCheckDto | WithMeta<SetupCheckDto>> {
    return this.setupChecks.setupCheck(project);
  }
}
