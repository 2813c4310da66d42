import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { CallerKind } from '../../auth/caller';
import { Clock } from '../../common/clock/clock';
import { ApiError } from '../../common/errors/api-error';
import { listPage, newestFirst } from '../../common/http/list-page';
import { Paged, WithMeta } from '../../common/http/reply';
import { isId, newId } from '../../common/ids/ids';
import { idempotently } from '../../idempotency/idempotent-call';
import { Database } from '../../infra/database/database.service';
import { ChangelogBroadcasts } from '../../notifications/changelog-broadcasts.service';
import type { ProjectRef } from '../../projects/project-ref';
import { assertPlanAllows } from '../../projects/requires-feature';
import { CreateEntryDto } from './dto/create-entry.dto';
import { DeletedDto } from '../shared/dto/deleted.dto';
import { EntryDto, toEntryDto } from './dto/entry.dto';
import { ListEntriesQueryDto } from './dto/list-entries-query.dto';
import { UpdateEntryDto } from './dto/update-entry.dto';
import { ChangelogEntryEntity, type EntryStatus } from '../entities/changelog-entry.entity';
import { resolveLabelSlugs } from '../labels/label-slugs';
import { containsPattern, publicEntryCondition } from '../shared/public-set';
import { lockProject } from '../../projects/project-lock';
import { ENTRY_HAS_LABEL, endOtherAnnouncement, findEntryForUpdate, labelSlugsOf, replaceEntryLabels } from './entries.queries';
import { entryAnswer } from './entry-answer';
import { fixedFieldOfPublished, mergeValues } from './entry-changes';
import { checkEntryValues } from './entry-checks';
import { type EntryField, type EntryValues, NEW_ENTRY_DEFAULTS, WIRE_NAMES, invalid } from './entry-fields';
import { sentValues } from './entry-parsing';
import { holdsPlanSlot, statusOnCreate } from './entry-status';
import { EntryPublishing } from './entry-publishing.service';
import { assignValues, entryColumns, valuesOfEntry } from './entry-values';
import { PublicChangelogCache } from '../public/public-changelog.cache';

/**
 * Changelog entries: create, update, read, list, delete (spec: Changelog entry, Changelog entry
 * input, States and transitions → Changelog entry, Limits → Changelog). Archiving lives in
 * entry-lifecycle.service.ts, going live and scheduling in entry-publishing.ts.
 *
 * Choices the spec leaves open:
 * - Answers: `data` is exactly the owner view. Single-entry answers (create, update, get, archive,
 *   unarchive) add `meta.entry_options` with the accepted-but-not-shown fields (labels as slugs,
 *   audience, segment, pinned, expires_at, announcement, cover image, CTA, notify switches), so a
 *   dashboard can read back what it set; lists carry only the owner view.
 * - Create: `status: "draft"` makes a draft; `scheduled_at` (in the future) schedules; neither
 *   publishes now. Draft with scheduled_at is a VALIDATION_ERROR (`status`): one or the other.
 * - Update: `status` accepts only `published` (a draft or scheduled entry goes live now, and its
 *   scheduled_at is cleared); `scheduled_at` on a draft or scheduled entry (re)schedules it, null
 *   makes it a draft again. A field sent with its current value is not a change, so a published
 *   entry accepts its own fields back. Notify switches may change until the entry is published.
 *   Cross-field rules (CTA pair, audience and segment) are checked on the merged entry.
 * - Text: title and version are trimmed and must not be blank; the body is stored as sent (markdown
 *   whitespace matters) but must not be blank. Lengths count code points.
 * - Plan cap (Free, 25): published and scheduled entries count, so a schedule holds its place and the
 *   cap can never be passed at the scheduled time; drafts, archived and deleted entries free it.
 *   Counted under the project row lock, so concurrent publishes never pass it.
 * - Announcement: Indie and up; setting one on an entry (any status) ends the project's current one
 *   and the answer names it in `meta.announcement_replaced_entry_id`. Segment audience: Builder.
 * - List: newest first (id descending). A publishable key sees only published, public-audience,
 *   unexpired entries, in the same owner-view shape, and its filters apply on top of that. `label`
 *   is a slug (an unknown one lists nothing); `q` matches title or body case-insensitively, with
 *   `%`, `_` and `\` taken literally.
 * - notify_in_app left out on create follows the project's `changelog_to_bell_default` (off unless
 *   set with PATCH /v1/notifications/settings); drafts from commits follow it too.
 * - Delete is permanent and frees the entry's place under the cap; its labels and schedules go with
 *   it; its bell broadcast stays (a notification: DELETE /v1/notifications/{id} removes it); feedback
 *   keeps its (now dangling) entry id.
 */
@Injectable()
export class EntriesService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly publishing: EntryPublishing,
    private readonly bell: ChangelogBroadcasts,
    private readonly publicAnswers: PublicChangelogCache,
  ) {}

  /**
   * Stores a draft written by another use case (drafts from commits) in `em`'s transaction, every
   * other field at its create default. A draft is not public and holds no place under the cap.
   */
  async insertDraft(
    em: EntityManager,
    project: ProjectRef,
    text: Pick<EntryValues, 'title' | 'bodyMarkdown' | 'version' | 'category'>,
  ): Promise<EntryDto> {
    const notifyInApp = await this.bell.notifyInAppDefault(em, project.id);
    const row = await insertEntry(em, project.id, 'draft', { ...NEW_ENTRY_DEFAULTS, notifyInApp, ...text }, this.clock.now());
    return toEntryDto(row, this.publishing.publicUrl(project.slug, row.id));
  }

  async createEntry(project: ProjectRef, input: CreateEntryDto): Promise<WithMeta<EntryDto>> {
    const now = this.clock.now();
    const values: EntryValues = {
      ...NEW_ENTRY_DEFAULTS,
      ...(sentValues(input) as Pick<EntryValues, 'title' | 'bodyMarkdown' | 'category'>),
    };
    checkEntryValues(values, new Set(Object.keys(values) as EntryField[]), now);
    const status = statusOnCreate(input.status === 'draft', values.scheduledAt);
    this.assertPlanGates(project, values, new Set(['audience', 'announcement', 'notifySubscribers']));
    return this.db.transaction((em) =>
      idempotently(em, input, async () => {
        await lockProject(em, project.id);
        // Unsaid, notify_in_app follows the project's changelog_to_bell_default (read fresh, not from the key cache).
        if (input.notify_in_app === undefined) values.notifyInApp = await this.bell.notifyInAppDefault(em, project.id);
        const labelIds = await resolveLabelSlugs(em, project.id, values.labels);
        if (holdsPlanSlot(status)) await this.publishing.assertSlotFree(em, project);
        const replaced = values.announcement ? await endOtherAnnouncement(em, project.id, null) : null;
        // A direct publish is inserted as a draft and published by the one publishing path.
        const row = await insertEntry(em, project.id, status === 'published' ? 'draft' : status, values, now);
        await replaceEntryLabels(em, row.id, labelIds);
        if (status === 'published') await this.publishing.publish(em, row, project.slug);
        if (status === 'scheduled') await this.publishing.schedule(em, row);
        return entryAnswer(em, row, this.publishing.publicUrl(project.slug, row.id), replaced);
      }),
    );
  }

  async updateEntry(project: ProjectRef, entryId: string, input: UpdateEntryDto): Promise<WithMeta<EntryDto>> {
    const now = this.clock.now();
    const sent = sentValues(input);
    if (input.status === 'published' && input.scheduled_at) {
      throw invalid('status', 'status "published" publishes now; it cannot come with a scheduled_at.', 'Send one of the two.');
    }
    return this.db.transaction(async (em) => {
      await lockProject(em, project.id);
      const row = await this.entryForUpdate(em, project, entryId);
      const { next, changed } = mergeValues(valuesOfEntry(row, await labelSlugsOf(em, row.id)), sent);
      const target = this.targetStatus(row, input, changed);
      if (row.status === 'published') {
        const fixed = fixedFieldOfPublished(changed);
        if (fixed) {
          throw new ApiError('CANNOT_EDIT_PUBLISHED', `A published entry keeps its ${WIRE_NAMES[fixed]}.`, { param: WIRE_NAMES[fixed] });
        }
      }
      const changedSet = new Set(changed);
      checkEntryValues(next, changedSet, now);
      this.assertPlanGates(project, next, changedSet);
      if (changedSet.has('labels')) await replaceEntryLabels(em, row.id, await resolveLabelSlugs(em, project.id, next.labels));
      if (!holdsPlanSlot(row.status) && holdsPlanSlot(target)) await this.publishing.assertSlotFree(em, project);
      const replaced = changedSet.has('announcement') && next.announcement ? await endOtherAnnouncement(em, project.id, row.id) : null;
      const publishing = target === 'published' && row.status !== 'published';
      if (publishing) next.scheduledAt = null;
      const statusChanged = target !== row.status;
      if (changed.length > 0 || statusChanged) {
        assignValues(row, next);
        row.status = target === 'published' ? row.status : target;
        row.updatedAt = now;
        await em.update(ChangelogEntryEntity, { id: row.id }, entryColumns(row));
      }
      if (changed.length > 0 || statusChanged) await this.publicAnswers.announce(em, project.id);
      if (publishing) await this.publishing.publish(em, row, project.slug);
      else if (target === 'scheduled' && (row.status !== 'scheduled' || changedSet.has('scheduledAt'))) {
        await this.publishing.schedule(em, row);
      }
      return entryAnswer(em, row, this.publishing.publicUrl(project.slug, row.id), replaced);
    });
  }

  async getEntry(project: ProjectRef, entryId: string): Promise<WithMeta<EntryDto>> {
    const em = this.db.manager;
    const row = isId('ce', entryId) ? await em.findOne(ChangelogEntryEntity, { where: { projectId: project.id, id: entryId } }) : null;
    if (!row) throw notFound(entryId);
    return entryAnswer(em, row, this.publishing.publicUrl(project.slug, row.id));
  }

  async listEntries(project: ProjectRef, query: ListEntriesQueryDto, caller: CallerKind): Promise<Paged<EntryDto>> {
    const qb = this.db.manager.createQueryBuilder(ChangelogEntryEntity, 'e').where('e.project_id = :projectId', { projectId: project.id });
    if (caller !== 'secret_key') {
      // Spec: a publishable key reads only the public changelog set.
      qb.andWhere(publicEntryCondition(':now'), { now: this.clock.now() });
    }
    if (query.status) qb.andWhere('e.status = :status', { status: query.status });
    if (query.category) qb.andWhere('e.category = :category', { category: query.category });
    if (query.label) {
      qb.andWhere(ENTRY_HAS_LABEL, { label: query.label });
    }
    if (query.q) {
      qb.andWhere("(e.title ILIKE :q ESCAPE '\\' OR e.body_markdown ILIKE :q ESCAPE '\\')", { q: containsPattern(query.q) });
    }
    return listPage(qb, query, newestFirst('ce'), (row) => toEntryDto(row, this.publishing.publicUrl(project.slug, row.id)));
  }

  async deleteEntry(project: ProjectRef, entryId: string): Promise<DeletedDto> {
    if (!isId('ce', entryId)) throw notFound(entryId);
    const result = await this.db.transaction(async (em) => {
      const deleted = await em.delete(ChangelogEntryEntity, { projectId: project.id, id: entryId });
      if (deleted.affected) await this.publicAnswers.announce(em, project.id);
      return deleted;
    });
    if (!result.affected) throw notFound(entryId);
    return { id: entryId, deleted: true };
  }

  /** The entry, locked; NOT_FOUND for another project's or an unknown id, ENTRY_ARCHIVED when archived. */
  private async entryForUpdate(em: EntityManager, project: ProjectRef, entryId: string): Promise<ChangelogEntryEntity> {
    const row = isId('ce', entryId) ? await findEntryForUpdate(em, project.id, entryId) : null;
    if (!row) throw notFound(entryId);
    if (row.status === 'archived') {
      throw new ApiError('ENTRY_ARCHIVED', 'This entry is archived; archived entries are read-only.', { param: 'id' });
    }
    return row;
  }

  /** Spec: States and transitions → Changelog entry, for a PATCH. */
  private targetStatus(row: ChangelogEntryEntity, input: UpdateEntryDto, changed: readonly EntryField[]): EntryStatus {
    if (row.status === 'published') return 'published';
    if (input.status === 'published') return 'published';
    // A draft has no scheduled_at and a scheduled entry has one, so a change means a new time or none.
    if (changed.includes('scheduledAt')) return input.scheduled_at ? 'scheduled' : 'draft';
    return row.status;
  }

  /** Spec: Limits → Plan gates (changelog), for what this request sets. */
  private assertPlanGates(project: ProjectRef, values: EntryValues, changed: ReadonlySet<EntryField>): void {
    if (values.audience === 'segment' && (changed.has('audience') || changed.has('segment'))) {
      assertPlanAllows(project, 'segment_audience', 'audience');
    }
    if (values.announcement !== null && changed.has('announcement')) assertPlanAllows(project, 'announcements', 'announcement');
    // Subscriber emails are an Indie feature (plans.ts): refused here rather than silently not sent.
    if (values.notifySubscribers && changed.has('notifySubscribers'))
      assertPlanAllows(project, 'email_notifications', 'notify_subscribers');
  }
}

function notFound(entryId: string): ApiError {
  return new ApiError('NOT_FOUND', `No changelog entry ${entryId.slice(0, 64)} in this project.`, { param: 'id' });
}

async function insertEntry(
  em: EntityManager,
  projectId: string,
  status: EntryStatus,
  values: EntryValues,
  now: Date,
): Promise<ChangelogEntryEntity> {
  const row = Object.assign(new ChangelogEntryEntity(), {
    id: newId('ce'),
    projectId,
    status,
    statusBeforeArchive: null,
    publishedAt: null,
    archivedAt: null,
    createdAt: now,
    updatedAt: now,
  });
  assignValues(row, values);
  await em.insert(ChangelogEntryEntity, row);
  return row;
}
