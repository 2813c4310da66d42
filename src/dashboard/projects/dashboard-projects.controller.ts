import { Body, Controller, Delete, Get, Patch, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentAccountId } from '../../auth/current.decorators';
import { ApiEnvelope, ApiErrors } from '../../common/http/api-docs';
import { PathId } from '../../common/http/path-param.pipe';
import { Auth } from '../../common/http/route-policy';
import { Idempotent } from '../../idempotency/idempotent.decorator';
import { ProjectDto } from '../../projects/dto/project.dto';
import { DashboardProjectsService } from './dashboard-projects.service';
import { CreateProjectDto, UpdateProjectDto } from './dto/project-input.dto';
import { CreatedProjectDto, DeletedProjectDto } from './dto/project-results.dto';

/** The signed-in account's projects (issue 14 item 1). */
@ApiTags('Dashboard')
@Controller('v1/dashboard/projects')
export class DashboardProjectsController {
  constructor(private readonly projects: DashboardProjectsService) {}

  @Get()
  @Auth('dashboard_account')
  @ApiOperation({ summary: "The signed-in account's projects, oldest first." })
  @ApiEnvelope(ProjectDto, { isArray: true })
  listProjects(@CurrentAccountId() accountId: string): Promise<ProjectDto[]> {
    return this.projects.listProjects(accountId);
  }

  @Post()
  @Auth('dashboard_account')
  @Idempotent({ secretInAnswer: true })
  @ApiOperation({
    summary:
      'Create a project (on Free) with its first secret and publishable keys, shown this once. The account may hold as many projects as its highest plan allows.',
  })
  @ApiEnvelope(CreatedProjectDto, { status: 201 })
  @ApiErrors('VALIDATION_ERROR', 'INVALID_SLUG', 'SLUG_TAKEN', 'PROJECT_LIMIT_REACHED', 'IDEMPOTENCY_CONFLICT', 'PAYLOAD_TOO_LARGE')
  createProject(@CurrentAccountId() accountId: string, @Body() body: CreateProjectDto): Promise<CreatedProjectDto> {
    return this.projects.createProject(accountId, body);
  }

  @Get(':id')
  @Auth('dashboard_account')
  @ApiOperation({ summary: 'One of your projects.' })
  @ApiEnvelope(ProjectDto)
  @ApiErrors('PROJECT_NOT_FOUND')
  getProject(
    @CurrentAccountId() accountId: string,
    @PathId('id', 'prj', { notFound: 'PROJECT_NOT_FOUND', description: 'One of your projects.' }) id: string,
  ): Promise<ProjectDto> {
    return this.projects.getProject(accountId, id);
  }

  @Patch(':id')
  @Auth('dashboard_account')
  @ApiOperation({
    summary:
      'Rename a project or change its slug. The old slug keeps serving as a permanent redirect to the new one (hosted page, entry pages, feeds, public JSON, waitlist page).',
  })
  @ApiEnvelope(ProjectDto)
  @ApiErrors('VALIDATION_ERROR', 'PROJECT_NOT_FOUND', 'INVALID_SLUG', 'SLUG_TAKEN', 'SLUG_CHANGE_LIMIT_REACHED', 'PAYLOAD_TOO_LARGE')
  updateProject(
    @CurrentAccountId() accountId: string,
    @PathId('id', 'prj', { notFound: 'PROJECT_NOT_FOUND', description: 'One of your projects.' }) id: string,
    @Body() body: UpdateProjectDto,
  ): Promise<ProjectDto> {
    return this.projects.updateProject(accountId, id, body);
  }

  @Delete(':id')
  @Auth('dashboard_account')
  @ApiOperation({
    summary:
      'Delete a project with all its data (entries, signups, feedback, notifications, webhooks, keys, test-mode data). Its slug stays held for 30 days. The only project cannot be deleted.',
  })
  @ApiEnvelope(DeletedProjectDto)
  @ApiErrors('PROJECT_NOT_FOUND', 'LAST_PROJECT')
  deleteProject(
    @CurrentAccountId() accountId: string,
    @PathId('id', 'prj', { notFound: 'PROJECT_NOT_FOUND', description: 'One of your projects.' }) id: string,
  ): Promise<DeletedProjectDto> {
    return this.projects.deleteProject(accountId, id);
  }
}
