import { Injectable } from '@nestjs/common';
import type { DueRowJob } from '../../infra/queue/job-catalog';
import { OnJob } from '../../infra/queue/on-job.decorator';
import { EntryPublishing } from './entry-publishing.service';

/** The `changelog.publish` job: a scheduled entry publication, run by EntryPublishing, which also queues it. */
@Injectable()
export class EntryPublicationProcessor {
  constructor(private readonly work: EntryPublishing) {}

  @OnJob('changelog.publish')
  handle(job: DueRowJob): Promise<void> {
    return this.work.publishScheduled(job);
  }
}
