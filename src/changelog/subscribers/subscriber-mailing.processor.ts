import { Injectable } from '@nestjs/common';
import type { DueRowJob } from '../../infra/queue/job-catalog';
import { OnJob } from '../../infra/queue/on-job.decorator';
import { SubscriberMailings } from './subscriber-mailings.service';

/** The `changelog.mailing` job: an entry's subscriber emails, run by SubscriberMailings, which also queues it. */
@Injectable()
export class SubscriberMailingProcessor {
  constructor(private readonly work: SubscriberMailings) {}

  @OnJob('changelog.mailing')
  handle(job: DueRowJob): Promise<void> {
    return this.work.writeEmails(job);
  }
}
