import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { newId } from '../../common/ids/ids';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { Database } from '../../infra/database/database.service';
import { DueRows, defineDueRows } from '../../infra/queue/due-rows.service';
import { pendingColumns } from '../../infra/queue/due-rows.queries';
import type { DueRowJob } from '../../infra/queue/job-catalog';
import type { ProjectRef } from '../../projects/project-ref';
import { ProjectsService } from '../../projects/projects.service';
import { entryPublicUrl } from '../shared/changelog-links';
import { ChangelogEntryEntity } from '../entities/changelog-entry.entity';
import { ChangelogMailingEntity } from '../entities/changelog-mailing.entity';
import { mailingSkipReason } from './mailing-rules';
import { SubscriberMailer } from './subscriber-mailer.service';
import { nextMailingRecipients } from './subscribers.queries';

/** The subscriber emails of published entries, as due rows (see ChangelogMailingEntity). */
const CHANGELOG_MAILINGS = defineDueRows<ChangelogMailingEntity>({
  name: 'changelog mailings',
  entity: ChangelogMailingEntity,
  job: 'changelog.mailing',
  doneStatus: 'sent',
  retryDelaysMs: [60_000, 300_000, 1_800_000, 7_200_000],
  leaseMs: 120_000,
});

/** Emails written per transaction: one statement's worth of tokens, a few hundred outbox rows. */
const MAILING_BATCH_SIZE = 500;

/**
 * Emails a published entry to its subscribers: `queueForEntry` runs in the publishing transaction
 * (the publisher calls it only when `notify_subscribers` is set); the job writes one email per
 * matching, confirmed subscriber into the mail outbox, and the mail outbox sends them.
 *
 * - Who: confirmed subscribers of the project who follow no labels (everything), or at least one
 *   of the entry's labels. An entry without labels goes only to those who follow everything.
 * - Batches of MAILING_BATCH_SIZE in subscriber id order; each batch is one transaction that
 *   writes the emails and their link tokens and moves the mailing's `cursor` and `emails_queued`.
 *   The mailing row is locked and its cursor re-read in that transaction, so a crash resumes after
 *   the last committed batch, and a second worker (a lease that ran out) cannot write a batch twice.
 * - Every batch re-checks the entry (mailing-rules.ts): published, public audience, notify on,
 *   unexpired, a plan with subscriber emails. When a check fails, the rest is not sent and the
 *   mailing ends as `sent` with what was queued so far (the reason is logged).
 * - One job attempt writes every batch. A mailing that outlives the lease (very large lists) may
 *   be taken up by a second worker meanwhile; the row lock and re-read cursor keep that harmless.
 * - Entry emails: subject = title (with the version in brackets when there is one); text = the
 *   body as plain text, the entry's public_url, a "Choose your topics" link and an unsubscribe
 *   link; HTML = the sanitized body in a Mustache template; fresh link tokens for every email.
 * - People who subscribe (or confirm) while a mailing runs get the entry if the cursor has not
 *   passed their id yet; ids sort by creation, so usually they do.
 */
@Injectable()
export class SubscriberMailings implements OnModuleInit {
  private readonly logger = new Logger(SubscriberMailings.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly dueRows: DueRows,
    private readonly projects: ProjectsService,
    private readonly mailer: SubscriberMailer,
  ) {}

  onModuleInit(): void {
    this.dueRows.registerSweep(CHANGELOG_MAILINGS);
  }

  /** Writes the entry's mailing row in `em`'s transaction; a worker takes it after commit. Once per entry. */
  async queueForEntry(em: EntityManager, entry: { id: string; projectId: string }): Promise<void> {
    const now = this.clock.now();
    const row = Object.assign(new ChangelogMailingEntity(), {
      id: newId('cml'),
      projectId: entry.projectId,
      entryId: entry.id,
      cursor: null,
      emailsQueued: 0,
      ...pendingColumns(now),
      createdAt: now,
    });
    await em.createQueryBuilder().insert().into(ChangelogMailingEntity).values(row).orIgnore().execute();
    this.dueRows.enqueueAfterCommit(em, CHANGELOG_MAILINGS, row);
  }

  writeEmails({ id }: DueRowJob): Promise<void> {
    return this.dueRows.process(CHANGELOG_MAILINGS, id, (mailing) => this.writeAll(mailing));
  }

  /**
   * One batch; true when nothing is left to write. Public for the crash test, which stops a
   * mailing after one batch and lets the job finish it.
   */
  async writeNextBatch(mailingId: string, project: ProjectRef | null, batchSize = MAILING_BATCH_SIZE): Promise<boolean> {
    return this.db.transaction(async (em) => {
      const mailing = await em.findOne(ChangelogMailingEntity, { where: { id: mailingId }, lock: { mode: 'pessimistic_write' } });
      if (!mailing || mailing.status !== 'pending') return true;
      const entry = await em.findOneBy(ChangelogEntryEntity, { id: mailing.entryId, projectId: mailing.projectId });
      const now = this.clock.now();
      const skip = mailingSkipReason(entry, project?.plan ?? null, now);
      if (skip !== null || !entry || !project) {
        this.logger.log(`Changelog mailing ${mailing.id} stops after ${mailing.emailsQueued} emails: ${skip}`);
        return true;
      }
      const recipients = await nextMailingRecipients(
        em,
        { projectId: mailing.projectId, entryId: entry.id, afterId: mailing.cursor },
        batchSize,
      );
      if (recipients.length === 0) return true;
      await this.mailer.queueEntryEmails(
        em,
        {
          projectId: project.id,
          projectName: project.name,
          title: entry.title,
          version: entry.version,
          bodyMarkdown: entry.bodyMarkdown,
          publicUrl: entryPublicUrl(this.config, project.slug, entry.id),
        },
        recipients,
        now,
      );
      await em.update(
        ChangelogMailingEntity,
        { id: mailing.id },
        { cursor: recipients[recipients.length - 1].id, emailsQueued: mailing.emailsQueued + recipients.length },
      );
      return recipients.length < batchSize;
    });
  }

  private async writeAll(mailing: ChangelogMailingEntity): Promise<void> {
    // Read outside the batch transactions (a second connection inside one deadlocks the embedded database).
    const project = await this.projects.findById(mailing.projectId);
    while (!(await this.writeNextBatch(mailing.id, project))) {
      // each iteration committed one batch
    }
  }
}
