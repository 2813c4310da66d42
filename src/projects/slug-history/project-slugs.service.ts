import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { ApiError } from '../../common/errors/api-error';
import { PermanentRedirect } from '../../common/http/permanent-redirect';
import { newId } from '../../common/ids/ids';
import { Database } from '../../infra/database/database.service';
import { isUniqueViolation } from '../../infra/database/postgres-errors';
import { ProjectEntity } from '../entities/project.entity';
import { RESERVED_SLUGS, isValidSlug } from '../slugs';
import {
  countedSlugChangesSince,
  currentSlugOf,
  deleteSlugHold,
  findSlugHold,
  holdSlug,
  insertSlugChange,
  lockSlugs,
} from './slug-history.queries';
import { isHeldFrom, nextSlugChangeAt, slugChangeWindowStart } from './slug-rules';
import { updateProjectSlug } from '../projects.queries';

const slugTaken = (slug: string, why: string) => new ApiError('SLUG_TAKEN', `The slug "${slug}" ${why}.`, { param: 'slug' });

/**
 * Slug changes, the 30-day hold of released slugs and the redirects of old slugs (spec: Limits,
 * Slug; issue 14 item 2). Choices the spec leaves open:
 * - A released slug redirects to its project's current slug for as long as no other project has
 *   taken it (another project may take it 30 days after its release). A project may take its own
 *   old slug back at any time; that is a change like any other.
 * - A deleted project's slug is held 30 days too, and redirects nowhere.
 * - The first rename of a project whose slug was generated from its name is not counted; every
 *   other change is, two per rolling 30 days.
 * Everything that takes or releases a slug locks it first (an advisory lock per slug), so the hold
 * check and the change it guards cannot interleave with another project's.
 */
@Injectable()
export class ProjectSlugsService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /** For a new project: locks the slug; false when a released slug is still held (the caller picks another or refuses). */
  async claimForNewProject(em: EntityManager, slug: string): Promise<boolean> {
    await lockSlugs(em, [slug]);
    const hold = await findSlugHold(em, slug);
    if (isHeldFrom(hold, null, this.clock.now())) return false;
    if (hold) await deleteSlugHold(em, slug);
    return true;
  }

  /**
   * Moves a project (its row locked by the caller) to `slug`: INVALID_SLUG, SLUG_TAKEN (in use,
   * reserved or held), SLUG_CHANGE_LIMIT_REACHED; the old slug then redirects here. Same slug: nothing.
   */
  async changeSlug(em: EntityManager, project: ProjectEntity, slug: string): Promise<void> {
    if (!isValidSlug(slug)) {
      throw new ApiError('INVALID_SLUG', 'A slug is 1 to 40 lowercase letters, digits and hyphens.', { param: 'slug' });
    }
    if (slug === project.slug) return;
    if (RESERVED_SLUGS.has(slug)) throw slugTaken(slug, 'is reserved');
    const now = this.clock.now();
    const counted = !project.slugGenerated;
    if (counted) await this.assertChangeAllowed(em, project.id, now);
    await lockSlugs(em, [project.slug, slug]);
    const hold = await findSlugHold(em, slug);
    if (isHeldFrom(hold, project.id, now)) throw slugTaken(slug, 'was released by another project less than 30 days ago');
    if (hold) await deleteSlugHold(em, slug);
    await this.moveProject(em, project.id, slug, now);
    await holdSlug(em, project.slug, project.id, now);
    await insertSlugChange(em, { id: newId('slc'), projectId: project.id, fromSlug: project.slug, toSlug: slug, counted, changedAt: now });
    Object.assign(project, { slug, slugGenerated: false, updatedAt: now });
  }

  /** A deleted project's slug: held from other projects for 30 days, redirecting nowhere. */
  async releaseSlugOfDeletedProject(em: EntityManager, slug: string): Promise<void> {
    await lockSlugs(em, [slug]);
    await holdSlug(em, slug, null, this.clock.now());
  }

  /**
   * The one lookup every route with a project slug makes when the slug is not a project's: a
   * renamed project's old slug answers 308 to the same address under the current slug
   * (PermanentRedirect, written by the exception filter); anything else returns, and the route
   * answers its own not-found.
   */
  async redirectIfRenamed(slug: string, param: string): Promise<void> {
    if (!isValidSlug(slug)) return;
    const current = await currentSlugOf(this.db.manager, slug);
    if (current !== null && current !== slug) throw new PermanentRedirect(param, current);
  }

  private async assertChangeAllowed(em: EntityManager, projectId: string, now: Date): Promise<void> {
    const next = nextSlugChangeAt(await countedSlugChangesSince(em, projectId, slugChangeWindowStart(now)));
    if (!next) return;
    const date = next.toISOString();
    throw new ApiError('SLUG_CHANGE_LIMIT_REACHED', `The slug changed twice in the last 30 days; it can change again at ${date}.`, {
      param: 'slug',
      remediation: `Change the slug again after ${date}. Old links keep working meanwhile.`,
      headers: { 'Retry-After': String(Math.max(1, Math.ceil((next.getTime() - now.getTime()) / 1000))) },
    });
  }

  private async moveProject(em: EntityManager, projectId: string, slug: string, now: Date): Promise<void> {
    await em.query('SAVEPOINT project_slug_change');
    try {
      await updateProjectSlug(em, projectId, slug, now);
      await em.query('RELEASE SAVEPOINT project_slug_change');
    } catch (error) {
      await em.query('ROLLBACK TO SAVEPOINT project_slug_change');
      if (isUniqueViolation(error, 'uq_projects_slug')) throw slugTaken(slug, 'is in use by another project');
      throw error;
    }
  }
}
