import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { ApiError } from '../../common/errors/api-error';
import { WithMeta } from '../../common/http/reply';
import { isId } from '../../common/ids/ids';
import { Database } from '../../infra/database/database.service';
import type { ProjectRef } from '../../projects/project-ref';
import type { EntryDto } from './dto/entry.dto';
import { ChangelogEntryEntity } from '../entities/changelog-entry.entity';
import { lockProject } from '../../projects/project-lock';
import { findEntryForUpdate } from './entries.queries';
import { entryAnswer } from './entry-answer';
import { holdsPlanSlot } from './entry-status';
import { EntryPublishing } from './entry-publishing.service';
import { entryColumns } from './entry-values';
import { mailingSkipReason } from '../subscribers/mailing-rules';
import { countMailingRecipients } from '../subscribers/subscribers.queries';
import { PublicChangelogCache } from '../public/public-changelog.cache';

/** What publishing an entry would reach (EntryLifecycleService.publicationReach). */
interface PublicationReach {
  status: string;
  audience: string;
  public_url: string;
  /** False for an entry published before (unarchived): no event, bell or email goes out again. */
  first_publication: boolean;
  bell_users: number;
  subscribers: number;
  subscribers_skipped_because: string | null;
  notify_chat: boolean;
}

/**
 * Archiving (spec: "any → archived; archiving ends its announcement"; the paths and the way back
 * are ours):
 * - `POST /v1/changelog/entries/{id}/archive` works from every status. The entry leaves every public
 *   surface, its announcement ends (and is not restored), a pending schedule is abandoned (its
 *   publication row ends `skipped`), and its place under the Free cap is freed. Archiving an
 *   archived entry answers it unchanged.
 * - `POST .../unarchive` returns it to the status it had. Returning to published or scheduled needs
 *   a free place under the cap (PLAN_LIMIT_REACHED otherwise). A scheduled entry whose time passed
 *   while archived publishes at once through the normal publish path (the event, bell and emails
 *   happen then, once, as they never happened before); one whose time is still ahead is scheduled
 *   again. A published entry comes back without a second event. Unarchiving an entry that is not
 *   archived answers it unchanged.
 * - An archived entry is read-only: PATCH answers 409 ENTRY_ARCHIVED; it can still be deleted.
 */
@Injectable()
export class EntryLifecycleService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly publishing: EntryPublishing,
    private readonly publicAnswers: PublicChangelogCache,
  ) {}

  archiveEntry(project: ProjectRef, entryId: string): Promise<WithMeta<EntryDto>> {
    return this.db.transaction(async (em) => {
      await lockProject(em, project.id);
      const row = await this.lockedEntry(em, project, entryId);
      if (row.status !== 'archived') {
        const now = this.clock.now();
        Object.assign(row, {
          statusBeforeArchive: row.status,
          status: 'archived',
          archivedAt: now,
          announcementStyle: null,
          announcementUntil: null,
          updatedAt: now,
        });
        await em.update(ChangelogEntryEntity, { id: row.id }, entryColumns(row));
        await this.publicAnswers.announce(em, project.id);
      }
      return entryAnswer(em, row, this.publishing.publicUrl(project.slug, row.id));
    });
  }

  unarchiveEntry(project: ProjectRef, entryId: string): Promise<WithMeta<EntryDto>> {
    return this.db.transaction(async (em) => {
      await lockProject(em, project.id);
      const row = await this.lockedEntry(em, project, entryId);
      if (row.status === 'archived') {
        const now = this.clock.now();
        const previous = row.statusBeforeArchive ?? 'draft';
        if (holdsPlanSlot(previous)) await this.publishing.assertSlotFree(em, project);
        const overdue = previous === 'scheduled' && (row.scheduledAt === null || row.scheduledAt.getTime() <= now.getTime());
        Object.assign(row, { status: overdue ? 'draft' : previous, statusBeforeArchive: null, archivedAt: null, updatedAt: now });
        await em.update(ChangelogEntryEntity, { id: row.id }, entryColumns(row));
        await this.publicAnswers.announce(em, project.id);
        if (overdue) await this.publishing.publish(em, row, project.slug);
        else if (previous === 'scheduled') await this.publishing.schedule(em, row);
      }
      return entryAnswer(em, row, this.publishing.publicUrl(project.slug, row.id));
    });
  }

  /**
   * Who publishing the entry now would reach, for a preview that changes nothing: the bell
   * broadcast (people whose bell has asked; none for segment entries or without notify_in_app) and
   * the subscriber mailing (mailingSkipReason's rules, as if the entry were published now).
   */
  async publicationReach(project: ProjectRef, entryId: string): Promise<PublicationReach> {
    const em = this.db.manager;
    const row = isId('ce', entryId) ? await em.findOne(ChangelogEntryEntity, { where: { id: entryId, projectId: project.id } }) : null;
    if (!row) throw new ApiError('NOT_FOUND', `No changelog entry ${entryId.slice(0, 64)} in this project.`, { param: 'id' });
    const bell = row.notifyInApp && row.audience !== 'segment';
    const mailingSkipped = mailingSkipReason({ ...row, status: 'published' }, project.plan, this.clock.now());
    return {
      status: row.status,
      audience: row.audience,
      public_url: this.publishing.publicUrl(project.slug, row.id),
      first_publication: row.publishedAt === null,
      bell_users: bell && row.publishedAt === null ? await this.publishing.reachableBellUsers(em, project.id) : 0,
      subscribers: mailingSkipped || row.publishedAt !== null ? 0 : await countMailingRecipients(em, project.id, row.id),
      subscribers_skipped_because: row.publishedAt !== null ? 'the entry was published before' : mailingSkipped,
      notify_chat: row.notifyChat,
    };
  }

  private async lockedEntry(em: EntityManager, project: ProjectRef, entryId: string): Promise<ChangelogEntryEntity> {
    const row = isId('ce', entryId) ? await findEntryForUpdate(em, project.id, entryId) : null;
    if (!row) throw new ApiError('NOT_FOUND', `No changelog entry ${entryId.slice(0, 64)} in this project.`, { param: 'id' });
    return row;
  }
}
