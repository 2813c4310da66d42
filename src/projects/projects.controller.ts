import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth } from '../common/http/route-policy';
import { CurrentProject } from '../auth/current.decorators';
import { ApiEnvelope } from '../common/http/api-docs';
import { WithMeta } from '../common/http/reply';
import { SETUP_CHECK_META, SetupCheckDto } from './dto/setup-check.dto';
import type { ProjectRef } from './project-ref';
import { SetupCheckService } from './setup-check.service';

@ApiTags('Project')
@Controller('v1')
export class ProjectsController {
  constructor(private readonly setupChecks: SetupCheckService) {}

  @Get('setup-check')
  @Auth('secret')
  @ApiOperation({ summary: 'Confirm the key and list the plan, its features and limits. The first call an integrator makes.' })
  @ApiEnvelope(SetupCheckDto, { meta: SETUP_CHECK_META })
  setupCheck(@CurrentProject() project: ProjectRef): Promise<SetupCheckDto | WithMeta<SetupCheckDto>> {
    return this.setupChecks.setupCheck(project);
  }
}
