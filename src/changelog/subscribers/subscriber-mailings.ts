import { Injectable, OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { newId } from '../../common/ids/ids';
import { DueRows, PermanentFailure, defineDueRows } from '../../infra/queue/due-rows';
import { pendingColumns } from '../../infra/queue/due-rows.queries';
import type { DueRowJob } from '../../infra/queue/job-catalog';
import { OnJob } from '../../infra/queue/on-job.decorator';
import { ChangelogMailingEntity } from '../entities/changelog-mailing.entity';

/** The subscriber emails of published entries, as due rows (see ChangelogMailingEntity). */
export const CHANGELOG_MAILINGS = defineDueRows<ChangelogMailingEntity>({
  name: 'changelog mailings',
  entity: ChangelogMailingEntity,
  job: 'changelog.mailing',
  doneStatus: 'sent',
  retryDelaysMs: [60_000, 300_000, 1_800_000, 7_200_000],
  leaseMs: 120_000,
});

/**
 * Emails a published entry to its subscribers: `queueForEntry` runs in the publishing
 * transaction; the job writes one email per matching, confirmed subscriber into the mail outbox.
 */
@Injectable()
export class SubscriberMailings implements OnModuleInit {
  constructor(
    private readonly clock: Clock,
    private readonly dueRows: DueRows,
  ) {}

  onModuleInit(): void {
    this.dueRows.registerSweep(CHANGELOG_MAILINGS);
  }

  /** Writes the entry's mailing row in `em`'s transaction; a worker takes it after commit. */
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

  @OnJob('changelog.mailing')
  writeEmails({ id }: DueRowJob): Promise<void> {
    return this.dueRows.process(CHANGELOG_MAILINGS, id, () =>
      Promise.reject(new PermanentFailure('subscriber emails are written by the subscribers work')),
    );
  }
}
