import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiEnvelope } from '../common/http/api-docs';
import { WithMeta } from '../common/http/reply';
import { Auth } from '../common/http/route-policy';
import { SETUP_CHECK_META, SetupCheckDto } from '../projects/dto/setup-check.dto';
import type { ProjectRef } from '../projects/project-ref';
import { SetupCheckService } from '../projects/setup-check.service';
import { CurrentProject } from './current.decorators';

/**
 * The setup check's route. It lives beside the guard and @CurrentProject(), which sit above
 * projects/ (a caller carries its project); projects/ owns the check itself (SetupCheckService).
 */
@ApiTags('Project')
@Controller('v1')
export class SetupCheckController {
  constructor(private readonly setupChecks: SetupCheckService) {}

  @Get('setup-check')
  @Auth('secret')
  @ApiOperation({ summary: 'Confirm the key and list the plan, its features and limits. The first call an integrator makes.' })
  @ApiEnvelope(SetupCheckDto, { meta: SETUP_CHECK_META })
  setupCheck(@CurrentProject() project: ProjectRef): Promise<SetupCheckDto | WithMeta<SetupCheckDto>> {
    return this.setupChecks.setupCheck(project);
  }
}
