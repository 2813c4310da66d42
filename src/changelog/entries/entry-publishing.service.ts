import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { ApiError } from '../../common/errors/api-error';
import { newId } from '../../common/ids/ids';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { OutboxService } from '../../events/outbox.service';
import { ChangelogBroadcasts } from '../../notifications/changelog-broadcasts.service';
import { Database } from '../../infra/database/database.service';
import { DueRows, defineDueRows } from '../../infra/queue/due-rows.service';
import { pendingColumns } from '../../infra/queue/due-rows.queries';
import type { DueRowJob } from '../../infra/queue/job-catalog';
import { PlanUsage } from '../../projects/plan-usage.service';
import { planLimit } from '../../projects/plans';
import type { ProjectRef } from '../../projects/project-ref';
import { ProjectsService } from '../../projects/projects.service';
import { entryPublicUrl } from '../shared/changelog-links';
import { ChangelogEntryEntity } from '../entities/changelog-entry.entity';
import { ChangelogPublicationEntity } from '../entities/changelog-publication.entity';
import { SubscriberMailings } from '../subscribers/subscriber-mailings.service';
import { countReservedEntries, labelSlugsOf } from './entries.queries';
import { PublicChangelogCache } from '../public/public-changelog.cache';

/** Scheduled publications as due rows (see ChangelogPublicationEntity). */
export const CHANGELOG_PUBLICATIONS = defineDueRows<ChangelogPublicationEntity>({
  name: 'scheduled changelog publications',
  entity: ChangelogPublicationEntity,
  job: 'changelog.publish',
  doneStatus: 'published',
  // Publishing is one short transaction; a failure is a database hiccup, worth a quick retry.
  retryDelaysMs: [5_000, 30_000, 120_000, 600_000],
  leaseMs: 60_000,
});

/**
 * Going live: the plan cap, the publish side effects (once per entry) and scheduled publishing.
 * Every entry use case that can publish or schedule calls in here inside its own transaction.
 */
@Injectable()
export class EntryPublishing implements OnModuleInit {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly dueRows: DueRows,
    private readonly outbox: OutboxService,
    private readonly mailings: SubscriberMailings,
    private readonly usage: PlanUsage,
    private readonly bell: ChangelogBroadcasts,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly publicAnswers: PublicChangelogCache,
    private readonly projects: ProjectsService,
  ) {}

  onModuleInit(): void {
    this.dueRows.registerSweep(CHANGELOG_PUBLICATIONS);
    this.usage.registerCounter('changelogPublishedEntries', (projectId) => countReservedEntries(this.db.manager, projectId));
  }

  publicUrl(projectSlug: string, entryId: string): string {
    return entryPublicUrl(this.config, projectSlug, entryId);
  }

  /** People whose bell a changelog broadcast would reach now. */
  reachableBellUsers(em: EntityManager, projectId: string): Promise<number> {
    return this.bell.reachableBellUsers(em, projectId);
  }

  /**
   * PLAN_LIMIT_REACHED when one more published or scheduled entry would pass the plan's cap. The
   * caller holds the project lock (lockProject), so concurrent publishes count one after another.
   */
  async assertSlotFree(em: EntityManager, project: ProjectRef): Promise<void> {
    const max = planLimit(project.plan, 'changelogPublishedEntries');
    if (max === null) return;
    if ((await countReservedEntries(em, project.id)) >= max) {
      throw new ApiError('PLAN_LIMIT_REACHED', `The ${project.plan} plan allows ${max} published entries (scheduled ones included).`, {
        remediation: 'Archive or delete a published entry, keep this one as a draft, or upgrade the plan for unlimited entries.',
      });
    }
  }

  /**
   * Makes the entry live in `em`'s transaction. The first time only (`published_at` still null):
   * the event, the bell broadcast and the subscriber mailing. Later (unarchiving) it only goes live.
   */
  async publish(em: EntityManager, entry: ChangelogEntryEntity, projectSlug: string): Promise<void> {
    const now = this.clock.now();
    const first = entry.publishedAt === null;
    entry.status = 'published';
    entry.publishedAt ??= now;
    entry.updatedAt = now;
    await em.update(ChangelogEntryEntity, { id: entry.id }, { status: entry.status, publishedAt: entry.publishedAt, updatedAt: now });
    await this.publicAnswers.announce(em, entry.projectId);
    if (first) await this.announce(em, entry, this.publicUrl(projectSlug, entry.id));
  }

  /** Writes the publication row for the entry's `scheduled_at`; a worker takes it at that time. */
  async schedule(em: EntityManager, entry: ChangelogEntryEntity): Promise<void> {
    const dueAt = entry.scheduledAt as Date;
    const row = Object.assign(new ChangelogPublicationEntity(), {
      id: newId('cpub'),
      projectId: entry.projectId,
      entryId: entry.id,
      scheduledFor: dueAt,
      ...pendingColumns(dueAt),
      createdAt: this.clock.now(),
    });
    await em.insert(ChangelogPublicationEntity, row);
    this.dueRows.enqueueAfterCommit(em, CHANGELOG_PUBLICATIONS, row);
  }

  /**
   * The attempt of one publication row. It locks the entry and publishes only if the entry is still
   * scheduled for this row's time and that time has come; otherwise the row ends `skipped`. With the
   * claim of the due row and the entry lock, a schedule publishes at most once however many workers race.
   */
  publishScheduled({ id }: DueRowJob): Promise<void> {
    return this.dueRows.process(CHANGELOG_PUBLICATIONS, id, (row) =>
      this.db.transaction(async (em) => {
        const entry = await em.findOne(ChangelogEntryEntity, {
          where: { id: row.entryId, projectId: row.projectId },
          lock: { mode: 'pessimistic_write' },
        });
        if (!entry || entry.status !== 'scheduled' || entry.scheduledAt?.getTime() !== row.scheduledFor.getTime()) {
          return { status: 'skipped' as const };
        }
        // Claimed rows are due, so this only trips on clocks that disagree: try again later.
        if (row.scheduledFor.getTime() > this.clock.now().getTime()) throw new Error('the scheduled time has not come yet');
        await this.publish(em, entry, await this.projects.slugOf(em, row.projectId));
        return undefined;
      }),
    );
  }

  /** Spec: Events (`changelog.entry.published`), Delivery 5 and 6 (bell and email rules). */
  private async announce(em: EntityManager, entry: ChangelogEntryEntity, publicUrl: string): Promise<void> {
    const labels = await labelSlugsOf(em, entry.id);
    await this.outbox.record(em, entry.projectId, 'changelog.entry.published', {
      entry_id: entry.id,
      title: entry.title,
      body_markdown: entry.bodyMarkdown,
      version: entry.version,
      category: entry.category,
      published_at: (entry.publishedAt as Date).toISOString(),
      public_url: publicUrl,
      audience: entry.audience,
      labels,
      cover_image_url: entry.coverImageUrl,
      cta_label: entry.ctaLabel,
      cta_url: entry.ctaUrl,
    });
    // One broadcast per entry (never for segment entries), written in this transaction.
    if (entry.notifyInApp) {
      await this.bell.broadcastEntry(em, {
        projectId: entry.projectId,
        entryId: entry.id,
        title: entry.title,
        bodyMarkdown: entry.bodyMarkdown,
        audience: entry.audience,
        publicUrl,
        publishedAt: entry.publishedAt as Date,
      });
    }
    if (entry.notifySubscribers && entry.audience === 'public') await this.mailings.queueForEntry(em, entry);
  }
}
