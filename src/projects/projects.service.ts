import { Injectable } from '@nestjs/common';
import { EntityManager, IsNull } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { ApiError } from '../common/errors/api-error';
import { newId } from '../common/ids/ids';
import { ChangeNotifications } from '../infra/database/change-notifications.service';
import { Database } from '../infra/database/database.service';
import { isUniqueViolation } from '../infra/database/postgres-errors';
import { DEFAULT_PROJECT_SETTINGS, ProjectEntity, ProjectSettings } from './entities/project.entity';
import { PlanName } from './plans';
import { ProjectRef, toProjectRef } from './project-ref';
import { deleteProjectRow, livePlansOfAccount, projectIdsAfter, readProjectSlug } from './projects.queries';
import { ProjectSlugsService } from './slug-history/project-slugs.service';
import { RESERVED_SLUGS, isValidSlug, slugFromName, withRandomSuffix } from './slugs';

export interface CreateProjectInput {
  name: string;
  plan: PlanName;
  /** Given: must be free, else SLUG_TAKEN. Omitted: derived from the name, suffixed on collision. */
  slug?: string;
  accountId?: string | null;
  settings?: Partial<ProjectSettings>;
}

const SLUG_ATTEMPTS = 5;

/** The change kind a project's change (name, slug, plan, settings, deletion) is announced under. */
export const PROJECT_CHANGE = 'project';

/**
 * The twin's slug: the live project's id, which no user slug can take (user slugs have no "_"),
 * so it never collides and never needs a retry.
 */
const testTwinSlug = (liveProjectId: string) => `test_${liveProjectId.replace(/^prj_/, '').toLowerCase()}`.slice(0, 40);

/**
 * Projects are the tenants. A project's plan decides its limits (plans.ts). Changes are announced
 * (`announceChange`) so caches keyed by project (the API key cache) drop stale copies at once, in
 * every process.
 */
@Injectable()
export class ProjectsService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly slugs: ProjectSlugsService,
    private readonly changes: ChangeNotifications,
  ) {}

  async createProject(em: EntityManager, input: CreateProjectInput): Promise<ProjectRef> {
    if (input.slug !== undefined && !isValidSlug(input.slug)) {
      throw new ApiError('INVALID_SLUG', `"${input.slug}" is not a valid slug.`, { param: 'slug' });
    }
    if (input.slug !== undefined && RESERVED_SLUGS.has(input.slug)) {
      throw new ApiError('SLUG_TAKEN', `The slug "${input.slug}" is reserved.`, { param: 'slug' });
    }
    const base = input.slug ?? slugFromName(input.name);
    for (let attempt = 0; attempt < SLUG_ATTEMPTS; attempt += 1) {
      const slug = attempt === 0 && !RESERVED_SLUGS.has(base) ? base : withRandomSuffix(base);
      const row = this.newProjectRow(input, slug);
      // A released slug stays held from new projects for 30 days; a savepoint keeps the caller's
      // transaction usable when the slug is taken.
      const inserted = (await this.slugs.claimForNewProject(em, slug)) && (await this.insertUnlessSlugTaken(em, row));
      if (inserted) return toProjectRef(row);
      if (input.slug !== undefined) {
        throw new ApiError('SLUG_TAKEN', `The slug "${input.slug}" is in use or was released less than 30 days ago.`, { param: 'slug' });
      }
    }
    throw new ApiError('SLUG_TAKEN', 'Could not find a free slug for this name; pass one explicitly.', { param: 'slug' });
  }

  /** Sets the plan of a live project and of its test-mode twin, which always mirrors it. */
  async setPlan(projectId: string, plan: PlanName): Promise<ProjectRef> {
    return this.db.transaction((em) => this.setPlanIn(em, projectId, plan));
  }

  /** `setPlan` inside the caller's transaction (billing sets the plan with the event that paid for it). */
  async setPlanIn(em: EntityManager, projectId: string, plan: PlanName): Promise<ProjectRef> {
    const row = await em.findOne(ProjectEntity, { where: { id: projectId }, lock: { mode: 'pessimistic_write' } });
    if (!row) throw new ApiError('NOT_FOUND', `No project ${projectId}.`, { param: 'project' });
    if (row.liveProjectId) {
      throw new ApiError('VALIDATION_ERROR', `${projectId} is a test-mode project; set the plan of ${row.liveProjectId}.`, {
        param: 'project',
      });
    }
    row.plan = plan;
    row.updatedAt = this.clock.now();
    await em.save(row);
    const twin = await em.findOne(ProjectEntity, { where: { liveProjectId: projectId } });
    if (twin) await em.update(ProjectEntity, { id: twin.id }, { plan, updatedAt: row.updatedAt });
    await this.announceChange(em, projectId);
    return toProjectRef(row);
  }

  /**
   * The test-mode twin of a live project (created on first use, inside the caller's transaction):
   * a project row of its own linked to the live one, with the same name, plan and settings. Given
   * a twin, answers the twin.
   */
  async testTwinOf(em: EntityManager, projectId: string): Promise<ProjectRef> {
    // Serialises concurrent first uses, so one live project never gets two twins.
    const live = await em.findOne(ProjectEntity, { where: { id: projectId }, lock: { mode: 'pessimistic_write' } });
    if (!live) throw new ApiError('NOT_FOUND', `No project ${projectId}.`, { param: 'project' });
    if (live.liveProjectId) return toProjectRef(live);
    const existing = await em.findOne(ProjectEntity, { where: { liveProjectId: live.id } });
    if (existing) return toProjectRef(existing);
    const now = this.clock.now();
    const twin = Object.assign(new ProjectEntity(), {
      id: newId('prj'),
      accountId: null,
      slug: testTwinSlug(live.id),
      slugGenerated: false,
      name: live.name,
      plan: live.plan,
      settings: { ...live.settings },
      liveProjectId: live.id,
      createdAt: now,
      updatedAt: now,
    });
    await em.insert(ProjectEntity, twin);
    return toProjectRef(twin);
  }

  /**
   * Tells every process, this one included, that a project changed (name, slug, plan, settings,
   * deletion) once the caller's transaction commits: caches keyed by project (the API key cache)
   * drop their copies. A live project's change covers its test-mode twin, which follows it: such
   * caches file a twin's rows under the live project too.
   */
  async announceChange(em: EntityManager, projectId: string): Promise<void> {
    await this.changes.announce(em, PROJECT_CHANGE, projectId);
  }

  /**
   * The project row, locked (FOR UPDATE) until `em`'s transaction ends; given `accountId`, only
   * when that account owns it. Null when there is no such project.
   */
  lockedProject(em: EntityManager, projectId: string, accountId?: string): Promise<ProjectEntity | null> {
    const where = accountId === undefined ? { id: projectId } : { id: projectId, accountId };
    return em.findOne(ProjectEntity, { where, lock: { mode: 'pessimistic_write' } });
  }

  /** The project's id and, for a test-mode twin, its live project's id; null when there is no such project. */
  liveLinkOf(em: EntityManager, projectId: string): Promise<Pick<ProjectEntity, 'id' | 'liveProjectId'> | null> {
    return em.findOne(ProjectEntity, { where: { id: projectId }, select: { id: true, liveProjectId: true } });
  }

  /** The project's plan as stored now (a request's cached ProjectRef may predate a change); the project must exist. */
  async currentPlan(em: EntityManager, projectId: string): Promise<PlanName> {
    const row = await em.findOneOrFail(ProjectEntity, { where: { id: projectId }, select: { id: true, plan: true } });
    return row.plan;
  }

  /** Renames a live project and its test-mode twin, which keeps the live project's name. */
  async renameWithTwin(em: EntityManager, projectId: string, name: string, updatedAt: Date): Promise<void> {
    await em.update(ProjectEntity, { id: projectId }, { name, updatedAt });
    await em.update(ProjectEntity, { liveProjectId: projectId }, { name, updatedAt });
  }

  /** The project's slug as stored now, in `em`'s transaction. */
  slugOf(em: EntityManager, projectId: string): Promise<string> {
    return readProjectSlug(em, projectId);
  }

  /** The plans of the account's live projects (test-mode twins belong to no account). */
  livePlansOfAccount(em: EntityManager, accountId: string): Promise<PlanName[]> {
    return livePlansOfAccount(em, accountId);
  }

  /** Deletes the project; its test-mode twin and every row of both go with it (ON DELETE CASCADE everywhere). */
  deleteProject(em: EntityManager, projectId: string): Promise<void> {
    return deleteProjectRow(em, projectId);
  }

  /** A page of project ids in id order (keyset), for jobs that work project by project. */
  projectIdsAfter(em: EntityManager, after: string, limit: number): Promise<string[]> {
    return projectIdsAfter(em, after, limit);
  }

  /** An operator's `--project`: a project id or a slug. */
  async findByReference(reference: string): Promise<ProjectRef | null> {
    return (await this.findById(reference)) ?? (await this.findBySlug(reference));
  }

  /** Live projects, oldest first (test-mode twins are listed with their live project's keys). */
  async listLiveProjects(): Promise<ProjectRef[]> {
    const rows = await this.db.manager.find(ProjectEntity, { where: { liveProjectId: IsNull() }, order: { createdAt: 'ASC', id: 'ASC' } });
    return rows.map(toProjectRef);
  }

  async findById(projectId: string): Promise<ProjectRef | null> {
    const row = await this.db.manager.findOne(ProjectEntity, { where: { id: projectId } });
    return row ? toProjectRef(row) : null;
  }

  async findBySlug(slug: string): Promise<ProjectRef | null> {
    const row = await this.db.manager.findOne(ProjectEntity, { where: { slug } });
    return row ? toProjectRef(row) : null;
  }

  async listForAccount(accountId: string): Promise<ProjectRef[]> {
    const rows = await this.db.manager.find(ProjectEntity, { where: { accountId }, order: { createdAt: 'ASC', id: 'ASC' } });
    return rows.map(toProjectRef);
  }

  async countProjects(): Promise<number> {
    return this.db.manager.count(ProjectEntity);
  }

  private newProjectRow(input: CreateProjectInput, slug: string): ProjectEntity {
    const now = this.clock.now();
    return Object.assign(new ProjectEntity(), {
      id: newId('prj'),
      accountId: input.accountId ?? null,
      slug,
      slugGenerated: input.slug === undefined,
      name: input.name,
      plan: input.plan,
      settings: { ...DEFAULT_PROJECT_SETTINGS, ...input.settings },
      liveProjectId: null,
      createdAt: now,
      updatedAt: now,
    });
  }

  private async insertUnlessSlugTaken(em: EntityManager, row: ProjectEntity): Promise<boolean> {
    await em.query('SAVEPOINT project_slug');
    try {
      await em.insert(ProjectEntity, row);
      await em.query('RELEASE SAVEPOINT project_slug');
      return true;
    } catch (error) {
      await em.query('ROLLBACK TO SAVEPOINT project_slug');
      if (isUniqueViolation(error, 'uq_projects_slug')) return false;
      throw error;
    }
  }
}
