import { Injectable, OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { newId } from '../../common/ids/ids';
import { Database } from '../../infra/database/database.service';
import { DueRows, defineDueRows } from '../../infra/queue/due-rows.service';
import { pendingColumns } from '../../infra/queue/due-rows.queries';
import type { DueRowJob } from '../../infra/queue/job-catalog';
import { NotificationEntity } from '../entities/notification.entity';
import { NotificationReleaseEntity } from '../entities/notification-release.entity';

/** Scheduled notifications' releases as due rows (see NotificationReleaseEntity). */
const NOTIFICATION_RELEASES = defineDueRows<NotificationReleaseEntity>({
  name: 'scheduled notification releases',
  entity: NotificationReleaseEntity,
  job: 'notifications.release',
  doneStatus: 'released',
  // One short UPDATE; a failure is a database hiccup, worth quick retries.
  retryDelaysMs: [5_000, 30_000, 120_000, 600_000],
  leaseMs: 60_000,
});

/**
 * Scheduled sends: a delayed job at `send_at` (and the sweeper, if the job is lost) moves the
 * notification from `scheduled` to `visible`. Bells already go by `visible_at <= now`, so a late
 * job never shows anything late; the status is for the sender's lists.
 */
@Injectable()
export class NotificationReleases implements OnModuleInit {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly dueRows: DueRows,
  ) {}

  onModuleInit(): void {
    this.dueRows.registerSweep(NOTIFICATION_RELEASES);
  }

  /** Writes the release row of a scheduled notification in the send's transaction. */
  async schedule(em: EntityManager, notification: NotificationEntity): Promise<void> {
    const row = {
      id: newId('nrel'),
      projectId: notification.projectId,
      notificationId: notification.id,
      ...pendingColumns(notification.visibleAt),
      status: 'pending' as const,
      createdAt: this.clock.now(),
    };
    await em.insert(NotificationReleaseEntity, row);
    this.dueRows.enqueueAfterCommit(em, NOTIFICATION_RELEASES, row);
  }

  /**
   * One release attempt: flips the notification to visible if it is still scheduled and its time
   * has come; otherwise (already visible) the row ends `skipped`. Deleting a notification deletes
   * its release row with it (foreign key cascade), so a woken job then finds nothing to claim.
   */
  release({ id }: DueRowJob): Promise<void> {
    return this.dueRows.process(NOTIFICATION_RELEASES, id, (row) =>
      this.db.transaction(async (em) => {
        const notification = await em.findOne(NotificationEntity, {
          where: { id: row.notificationId, projectId: row.projectId },
          lock: { mode: 'pessimistic_write' },
        });
        if (!notification || notification.status !== 'scheduled') return { status: 'skipped' as const };
        // Claimed rows are due, so this only trips on clocks that disagree: try again later.
        if (notification.visibleAt.getTime() > this.clock.now().getTime()) throw new Error('the send_at time has not come yet');
        await em.update(NotificationEntity, { id: notification.id }, { status: 'visible' });
        return undefined;
      }),
    );
  }
}
