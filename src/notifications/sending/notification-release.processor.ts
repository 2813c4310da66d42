import { Injectable } from '@nestjs/common';
import type { DueRowJob } from '../../infra/queue/job-catalog';
import { OnJob } from '../../infra/queue/on-job.decorator';
import { NotificationReleases } from './notification-releases.service';

/** The `notifications.release` job: a scheduled notification release, run by NotificationReleases, which also queues it. */
@Injectable()
export class NotificationReleaseProcessor {
  constructor(private readonly work: NotificationReleases) {}

  @OnJob('notifications.release')
  handle(job: DueRowJob): Promise<void> {
    return this.work.release(job);
  }
}
