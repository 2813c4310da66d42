import { Controller, Get, Inject } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth } from '../common/http/route-policy';
import { CurrentAccountId, CurrentProject } from '../auth/current.decorators';
import { ApiEnvelope } from '../common/http/api-docs';
import { WithMeta } from '../common/http/reply';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { ProjectDto } from '../projects/dto/project.dto';
import { SETUP_CHECK_META, SetupCheckDto } from '../projects/dto/setup-check.dto';
import { toProjectDto } from '../projects/project-links';
import type { ProjectRef } from '../projects/project-ref';
import { ProjectsService } from '../projects/projects.service';
import { SetupCheckService } from '../projects/setup-check.service';

const PROJECT_HEADER_DOC = { name: 'X-Service-Project', required: true, description: 'The id of one of your projects.' };

/** Dashboard endpoints: a signed-in user's JWT; project-scoped ones name the project in a header. */
@ApiTags('Dashboard')
@Controller('v1/dashboard')
export class DashboardController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly projects: ProjectsService,
    private readonly setupChecks: SetupCheckService,
  ) {}

  @Get('projects')
  @Auth('dashboard_account')
  @ApiOperation({ summary: "The signed-in account's projects, oldest first." })
  @ApiEnvelope(ProjectDto, { isArray: true })
  async listProjects(@CurrentAccountId() accountId: string): Promise<ProjectDto[]> {
    const projects = await this.projects.listForAccount(accountId);
    return projects.map((project) => toProjectDto(this.config, project));
  }

  @Get('setup-check')
  @Auth('dashboard')
  @ApiHeader(PROJECT_HEADER_DOC)
  @ApiOperation({ summary: 'The setup check of the project named in X-Service-Project.' })
  @ApiEnvelope(SetupCheckDto, { meta: SETUP_CHECK_META })
  dashboardSetupCheck(@CurrentProject() project: ProjectRef): Promise<SetupCheckDto | WithMeta<SetupCheckDto>> {
    return this.setupChecks.setupCheck(project);
  }
}
