import { Injectable } from '@nestjs/common';
import type { DueRowJob } from '../infra/queue/job-catalog';
import { OnJob } from '../infra/queue/on-job.decorator';
import { RevenueSyncs } from './revenue-syncs.service';

/** The `revenue.sync` job: a revenue sync, run by RevenueSyncs, which also queues it. */
@Injectable()
export class RevenueSyncProcessor {
  constructor(private readonly work: RevenueSyncs) {}

  @OnJob('revenue.sync')
  handle(job: DueRowJob): Promise<void> {
    return this.work.runSync(job);
  }
}
