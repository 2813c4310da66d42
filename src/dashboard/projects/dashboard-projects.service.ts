import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AccountsService } from '../../accounts/accounts.service';
import { ProvisioningService } from '../../auth/provisioning.service';
import { Clock } from '../../common/clock/clock';
import { ApiError } from '../../common/errors/api-error';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { idempotently } from '../../idempotency/idempotent-call';
import { Database } from '../../infra/database/database.service';
import { ProjectDto } from '../../projects/dto/project.dto';
import { ProjectEntity } from '../../projects/entities/project.entity';
import { highestPlan, planLimit } from '../../projects/plans';
import { toProjectDto } from '../../projects/project-links';
import { toProjectRef } from '../../projects/project-ref';
import { ProjectsService } from '../../projects/projects.service';
import { ProjectSlugsService } from '../../projects/slug-history/project-slugs.service';
import { CreateProjectDto, UpdateProjectDto } from './dto/project-input.dto';
import { CreatedProjectDto, DeletedProjectDto } from './dto/project-results.dto';

const projectNotFound = (projectId: string) =>
  new ApiError('PROJECT_NOT_FOUND', `Project ${projectId.slice(0, 64)} is not one of this account's projects.`, { param: 'id' });

/**
 * The account's projects from the dashboard (issue 14 item 1). Choices the spec leaves open:
 * - The account's plan, for the project count, is the highest plan among its live projects
 *   (plans are bought per project); a new project starts on Free.
 * - Creating and deleting lock the account's row first, so concurrent requests count in turn:
 *   the limit holds, and two deletes cannot remove the last two projects.
 * - Deleting removes the project, its test-mode twin and all their data in one statement (every
 *   table references projects with ON DELETE CASCADE); queued jobs then find no row and end. The
 *   slug is held from other projects for 30 days.
 */
@Injectable()
export class DashboardProjectsService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly projects: ProjectsService,
    private readonly slugs: ProjectSlugsService,
    private readonly provisioning: ProvisioningService,
    private readonly accounts: AccountsService,
  ) {}

  async listProjects(accountId: string): Promise<ProjectDto[]> {
    const projects = await this.projects.listForAccount(accountId);
    return projects.map((project) => toProjectDto(this.config, project));
  }

  async getProject(accountId: string, projectId: string): Promise<ProjectDto> {
    const project = await this.projects.findById(projectId);
    if (!project || project.accountId !== accountId) throw projectNotFound(projectId);
    return toProjectDto(this.config, project);
  }

  async createProject(accountId: string, input: CreateProjectDto): Promise<CreatedProjectDto> {
    return this.db.transaction((em) =>
      idempotently(em, input, async () => {
        await this.accounts.lockAccount(em, accountId);
        const plans = await this.projects.livePlansOfAccount(em, accountId);
        const plan = highestPlan(plans);
        const limit = planLimit(plan, 'projectsPerAccount');
        if (plans.length >= limit) {
          throw new ApiError('PROJECT_LIMIT_REACHED', `This account has ${plans.length} projects, as many as the ${plan} plan allows.`, {
            remediation: `The ${plan} plan allows ${limit} projects per account; delete one, or upgrade a project to a higher plan.`,
          });
        }
        const created = await this.provisioning.createInside(em, { name: input.name, slug: input.slug, plan: 'free', accountId });
        return {
          project: toProjectDto(this.config, created.project),
          secret_key: created.secretKey,
          publishable_key: created.publishableKey,
        };
      }),
    );
  }

  async updateProject(accountId: string, projectId: string, input: UpdateProjectDto): Promise<ProjectDto> {
    return this.db.transaction(async (em) => {
      const row = await this.lockOwnProject(em, accountId, projectId);
      if (input.name !== undefined && input.name !== row.name) {
        row.name = input.name;
        row.updatedAt = this.clock.now();
        await this.projects.renameWithTwin(em, row.id, row.name, row.updatedAt);
      }
      if (input.slug !== undefined) await this.slugs.changeSlug(em, row, input.slug);
      await this.projects.announceChange(em, row.id);
      return toProjectDto(this.config, toProjectRef(row));
    });
  }

  async deleteProject(accountId: string, projectId: string): Promise<DeletedProjectDto> {
    return this.db.transaction(async (em) => {
      await this.accounts.lockAccount(em, accountId);
      const row = await this.lockOwnProject(em, accountId, projectId);
      if ((await this.projects.livePlansOfAccount(em, accountId)).length <= 1) {
        throw new ApiError('LAST_PROJECT', 'This is the only project of the account; an account keeps at least one.', { param: 'id' });
      }
      await this.slugs.releaseSlugOfDeletedProject(em, row.slug);
      await this.projects.deleteProject(em, row.id);
      // Its keys stop at once: a project change drops its keys (and its twin's) from every process's cache.
      await this.projects.announceChange(em, row.id);
      return { id: row.id, deleted: true as const };
    });
  }

  private async lockOwnProject(em: EntityManager, accountId: string, projectId: string): Promise<ProjectEntity> {
    const row = await this.projects.lockedProject(em, projectId, accountId);
    if (!row || row.liveProjectId !== null) throw projectNotFound(projectId);
    return row;
  }
}
