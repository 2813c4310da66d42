import { Injectable } from '@nestjs/common';
import { idempotently } from '../../idempotency/idempotent-call';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { ApiError } from '../../common/errors/api-error';
import { isId, newId } from '../../common/ids/ids';
import { Database } from '../../infra/database/database.service';
import { isUniqueViolation } from '../../infra/database/postgres-errors';
import { planLimit } from '../../projects/plans';
import type { ProjectRef } from '../../projects/project-ref';
import { DeletedDto } from '../shared/dto/deleted.dto';
import { CreateLabelDto, LabelDto, UpdateLabelDto, toLabelDto } from './dto/label.dto';
import { ChangelogLabelEntity, UQ_LABELS_PROJECT_SLUG } from '../entities/changelog-label.entity';
import { lockProject } from '../../projects/project-lock';
import { slugFromName, uniqueSlug } from './label-slug';
import { PublicChangelogCache } from '../public/public-changelog.cache';

/**
 * Labels of the changelog (spec: Label, Limits → Labels per project).
 *
 * Choices the spec leaves open:
 * - The answer adds `id` and `created_at` to the spec's name, slug, colour. The list is every label
 *   of the project (at most the plan's cap, so unpaginated), by name.
 * - Names are trimmed, 1 to 50 characters; two labels may share a name but never a slug.
 * - Without a slug, one is made from the name (label-slug.ts) and numbered (-2, -3 …) past the
 *   project's taken slugs. A slug that is sent and taken is 409 LABEL_SLUG_TAKEN, never renumbered:
 *   a client that names a slug means that slug.
 * - A PATCH may rename, re-slug or recolour; entries and subscribers keep the label (they refer to
 *   its id). Delete removes it from every entry and subscriber (foreign keys cascade).
 * - The cap (Free 5, Indie 20, Builder 100) is counted under the project row lock.
 */
@Injectable()
export class LabelsService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly publicAnswers: PublicChangelogCache,
  ) {}

  async listLabels(project: ProjectRef): Promise<LabelDto[]> {
    const rows = await this.db.manager.find(ChangelogLabelEntity, { where: { projectId: project.id }, order: { name: 'ASC', id: 'ASC' } });
    return rows.map(toLabelDto);
  }

  createLabel(project: ProjectRef, input: CreateLabelDto): Promise<LabelDto> {
    const name = this.nameOf(input.name);
    return this.db.transaction((em) =>
      idempotently(em, input, async () => {
        await lockProject(em, project.id);
        const max = planLimit(project.plan, 'labels');
        const count = await em.count(ChangelogLabelEntity, { where: { projectId: project.id } });
        if (count >= max) {
          throw new ApiError('PLAN_LIMIT_REACHED', `The ${project.plan} plan allows ${max} labels.`, {
            remediation: 'Delete a label you no longer use, or upgrade the plan for more labels.',
          });
        }
        const slug = input.slug ?? uniqueSlug(slugFromName(name), await this.takenSlugs(em, project.id));
        const now = this.clock.now();
        const row = Object.assign(new ChangelogLabelEntity(), {
          id: newId('lbl'),
          projectId: project.id,
          name,
          slug,
          colour: input.colour ?? 'gray',
          createdAt: now,
          updatedAt: now,
        });
        await slugTaken(em.insert(ChangelogLabelEntity, row), slug);
        return toLabelDto(row);
      }),
    );
  }

  updateLabel(project: ProjectRef, labelId: string, input: UpdateLabelDto): Promise<LabelDto> {
    for (const field of ['name', 'slug', 'colour'] as const) {
      if (input[field] === null) throw new ApiError('VALIDATION_ERROR', `${field} cannot be null.`, { param: field });
    }
    return this.db.transaction(async (em) => {
      const row = isId('lbl', labelId)
        ? await em.findOne(ChangelogLabelEntity, { where: { projectId: project.id, id: labelId }, lock: { mode: 'pessimistic_write' } })
        : null;
      if (!row) throw new ApiError('NOT_FOUND', `No label ${labelId.slice(0, 64)} in this project.`, { param: 'id' });
      if (input.name !== undefined) row.name = this.nameOf(input.name);
      if (input.slug !== undefined) row.slug = input.slug;
      if (input.colour !== undefined) row.colour = input.colour;
      row.updatedAt = this.clock.now();
      await slugTaken(
        em.update(ChangelogLabelEntity, { id: row.id }, { name: row.name, slug: row.slug, colour: row.colour, updatedAt: row.updatedAt }),
        row.slug,
      );
      await this.publicAnswers.announce(em, project.id);
      return toLabelDto(row);
    });
  }

  async deleteLabel(project: ProjectRef, labelId: string): Promise<DeletedDto> {
    const result = isId('lbl', labelId)
      ? await this.db.transaction(async (em) => {
          const deleted = await em.delete(ChangelogLabelEntity, { projectId: project.id, id: labelId });
          if (deleted.affected) await this.publicAnswers.announce(em, project.id);
          return deleted;
        })
      : null;
    if (!result?.affected) throw new ApiError('NOT_FOUND', `No label ${labelId.slice(0, 64)} in this project.`, { param: 'id' });
    return { id: labelId, deleted: true };
  }

  private nameOf(raw: string): string {
    const name = raw.trim();
    if (name.length === 0) throw new ApiError('VALIDATION_ERROR', 'name must not be blank.', { param: 'name' });
    return name;
  }

  private async takenSlugs(em: EntityManager, projectId: string): Promise<Set<string>> {
    const rows = await em.find(ChangelogLabelEntity, { select: { slug: true }, where: { projectId } });
    return new Set(rows.map((row) => row.slug));
  }
}

/** The unique index decides: a taken slug is LABEL_SLUG_TAKEN. */
async function slugTaken<T>(write: Promise<T>, slug: string): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (isUniqueViolation(error, UQ_LABELS_PROJECT_SLUG)) {
      throw new ApiError('LABEL_SLUG_TAKEN', `Another label of this project has the slug "${slug}".`, { param: 'slug' });
    }
    throw error;
  }
}
