import { Inject, Injectable, Logger } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import { Clock } from '../../common/clock/clock';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { Database } from '../../infra/database/database.service';
import { ProjectsService } from '../../projects/projects.service';
import { BellStateCache } from '../bell/bell-state.cache';
import {
  deleteBellUsersBatch,
  deleteChildRowsBatch,
  deleteNotifications,
  deletePersonRows,
  expiredNotifications,
  PERSON_ERASURE_STATEMENTS,
} from './notification-retention.queries';
import { ErasureRegistry } from '../../infra/erasure/erasure-registry.service';

/** Spec: Retention — notifications, per-person records and bell user ids go 90 days after showing. */
const NOTIFICATION_RETENTION_MS = 90 * 24 * 60 * 60 * 1000;
/** Notifications per pass: each pass's child rows are deleted in chunks before the parents. */
const NOTIFICATION_BATCH = 200;
/** Rows per DELETE statement, so no statement holds locks for long. */
const ROW_BATCH = 5_000;
const PROJECT_PAGE = 500;

interface RetentionResult {
  notifications: number;
  bellUsers: number;
}

/**
 * Retention of the bell's data (spec: States → Notification, Limits → Retention; issue 10 item 9).
 *
 * - A notification, its recipients, receipts and pending release are deleted 90 days after
 *   `visible_at` (when it showed; a scheduled one counts from its `send_at`). The monthly usage
 *   counter is not touched: a month's count is history.
 * - A bell user id is deleted 90 days after its bell last asked: it then no longer counts in any
 *   `reached` (nothing older than 90 days is left to reach) nor in `active_7d`.
 * - Broadcasts leave bells after 30 days through the bell query's window (pinned ones stay until
 *   they are 90 days old and deleted): nothing is deleted for that.
 *
 * Runs daily at 03:00 UTC in worker processes. Every DELETE is its own short statement of at most
 * ROW_BATCH rows (a broadcast read by a million people has a million receipts): child rows go
 * first in chunks, then their notifications, so no big project holds long locks, and a crash in the
 * middle leaves nothing wrong, only work for the next run. Several workers running it at once only
 * share the work.
 */
@Injectable()
export class NotificationRetention {
  private readonly logger = new Logger(NotificationRetention.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly bells: BellStateCache,
    private readonly projects: ProjectsService,
    erasure: ErasureRegistry,
  ) {
    // An erased person's bell rows go with them, and every process's copy of their bell at commit.
    for (const [kind, sql] of PERSON_ERASURE_STATEMENTS) {
      erasure.contributeRecords(kind, async (em, person) => {
        const erased = await deletePersonRows(em, sql, person);
        if (kind === 'notifications') await this.bells.announcePeople(em, person.projectId, person.userIds);
        return erased;
      });
    }
  }

  @Cron(CronExpression.EVERY_DAY_AT_3AM, { name: 'notification-retention', timeZone: 'UTC' })
  async runDaily(): Promise<void> {
    if (!this.config.workers) return;
    try {
      const result = await this.purgeExpired();
      if (result.notifications + result.bellUsers > 0) {
        this.logger.log(`Retention deleted ${result.notifications} notifications and ${result.bellUsers} bell users`);
      }
    } catch (error) {
      this.logger.warn(`Notification retention failed: ${(error as Error).message}`);
    }
  }

  /** One full pass; what is left (a crash, a concurrent run) is taken by the next. */
  async purgeExpired(): Promise<RetentionResult> {
    const cutoff = new Date(this.clock.now().getTime() - NOTIFICATION_RETENTION_MS);
    return { notifications: await this.purgeNotifications(cutoff), bellUsers: await this.purgeBellUsers(cutoff) };
  }

  private async purgeNotifications(cutoff: Date): Promise<number> {
    const em = this.db.manager;
    let deleted = 0;
    for (;;) {
      const { ids, projectIds } = await expiredNotifications(em, cutoff, NOTIFICATION_BATCH);
      if (ids.length === 0) return deleted;
      for (const table of ['notification_receipts', 'notification_recipients', 'notification_releases'] as const) {
        while ((await deleteChildRowsBatch(em, table, ids, ROW_BATCH)) > 0);
      }
      // Receipts going first makes these unread for a moment: the bells' copies go now, and again
      // once the notifications are gone (each statement commits by itself).
      await this.bells.announceProjects(em, projectIds);
      deleted += await deleteNotifications(em, ids);
      await this.bells.announceProjects(em, projectIds);
    }
  }

  /** Project by project, so each batch is a range of the (project_id, last_seen_at) index. */
  private async purgeBellUsers(cutoff: Date): Promise<number> {
    const em = this.db.manager;
    let deleted = 0;
    let after = '';
    for (;;) {
      const projectIds = await this.projects.projectIdsAfter(em, after, PROJECT_PAGE);
      if (projectIds.length === 0) return deleted;
      for (const projectId of projectIds) {
        for (;;) {
          const count = await deleteBellUsersBatch(em, projectId, cutoff, ROW_BATCH);
          deleted += count;
          if (count < ROW_BATCH) break;
        }
      }
      after = projectIds[projectIds.length - 1];
    }
  }
}
