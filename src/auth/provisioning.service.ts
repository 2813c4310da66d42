import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { Database } from '../infra/database/database.service';
import { isUniqueViolation } from '../infra/database/postgres-errors';
import { MailService } from '../infra/mail/mail.service';
import { toProjectDto } from '../projects/project-links';
import { ProjectRef } from '../projects/project-ref';
import { CreateProjectInput, ProjectsService } from '../projects/projects.service';
import { AccountsService } from '../accounts/accounts.service';
import type { DashboardUser } from './caller';
import { ApiKeysService } from './api-keys.service';
import { AccountEntity } from '../accounts/entities/account.entity';
import { ApiKeyMode } from './entities/api-key.entity';
import { AccountDto, ProvisionDto, ProvisionResultDto } from './dto/provision.dto';

interface ProjectWithKeys {
  project: ProjectRef;
  secretKey: string;
  publishableKey: string;
}

const DEFAULT_PROJECT_NAME = 'My project';

/** Creating a project always comes with its first secret and publishable keys, shown once. */
@Injectable()
export class ProvisioningService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: Database,
    private readonly projects: ProjectsService,
    private readonly apiKeys: ApiKeysService,
    private readonly accounts: AccountsService,
    private readonly mail: MailService,
  ) {}

  async createProjectWithKeys(input: CreateProjectInput, mode: ApiKeyMode = 'live'): Promise<ProjectWithKeys> {
    return this.db.transaction((em) => this.createInside(em, input, mode));
  }

  /**
   * POST /v1/auth/provision: the account for the token's subject with its first project. A second
   * call (or a concurrent one) answers the same account and project without keys: they were shown once.
   */
  async provision(user: DashboardUser, input: ProvisionDto): Promise<ProvisionResultDto> {
    const subject = user.subject;
    const existing = await this.accounts.findBySubject(subject);
    if (existing) return this.existingResult(existing);
    try {
      return await this.db.transaction(async (em) => {
        const account = this.accounts.newAccountRow(subject, user.email);
        await this.accounts.insertAccount(em, account);
        const created = await this.createInside(
          em,
          { name: input.project_name ?? DEFAULT_PROJECT_NAME, plan: 'free', accountId: account.id },
          'live',
        );
        if (account.email) await this.queueWelcome(em, account.email, created);
        return {
          created: true,
          account: this.toAccountDto(account),
          project: toProjectDto(this.config, created.project),
          secret_key: created.secretKey,
          publishable_key: created.publishableKey,
        };
      });
    } catch (error) {
      if (!isUniqueViolation(error, 'uq_accounts_subject')) throw error;
      const winner = await this.accounts.findBySubject(subject);
      if (!winner) throw error;
      return this.existingResult(winner);
    }
  }

  /** Inside the caller's transaction (the dashboard's create, which holds the account's lock). */
  async createInside(em: EntityManager, input: CreateProjectInput, mode: ApiKeyMode = 'live'): Promise<ProjectWithKeys> {
    const project = await this.projects.createProject(em, input);
    const secret = await this.apiKeys.createKey(em, project.id, 'secret', mode);
    const publishable = await this.apiKeys.createKey(em, project.id, 'publishable', mode);
    return { project, secretKey: secret.key, publishableKey: publishable.key };
  }

  private async existingResult(account: AccountEntity): Promise<ProvisionResultDto> {
    // Every account keeps at least one project (the last one cannot be deleted).
    const [first] = await this.projects.listForAccount(account.id);
    return {
      created: false,
      account: this.toAccountDto(account),
      project: toProjectDto(this.config, first),
      secret_key: null,
      publishable_key: null,
    };
  }

  private toAccountDto(account: AccountEntity): AccountDto {
    return { id: account.id, email: account.email, created_at: account.createdAt.toISOString() };
  }

  private async queueWelcome(em: EntityManager, to: string, created: ProjectWithKeys): Promise<void> {
    const { project } = created;
    await this.mail.queueMail(em, {
      projectId: project.id,
      kind: 'account.welcome',
      to,
      subject: `Your project ${project.name} is ready`,
      text: [
        `Welcome to Launch Service.`,
        ``,
        `Your project "${project.name}" (${project.slug}) is on the Free plan.`,
        `Your keys were shown once when the account was created; create new ones from the dashboard if you lost them.`,
        `Start with GET ${this.config.publicBaseUrl}/v1/setup-check using your secret key.`,
      ].join('\n'),
    });
  }
}
