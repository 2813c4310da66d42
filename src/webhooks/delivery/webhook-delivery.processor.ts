import { Injectable } from '@nestjs/common';
import type { DueRowJob } from '../../infra/queue/job-catalog';
import { OnJob } from '../../infra/queue/on-job.decorator';
import { WebhookSender } from './webhook-sender.service';

/** The `webhooks.deliver` job: a webhook delivery attempt, run by WebhookSender, which also queues it. */
@Injectable()
export class WebhookDeliveryProcessor {
  constructor(private readonly work: WebhookSender) {}

  @OnJob('webhooks.deliver')
  handle(job: DueRowJob): Promise<void> {
    return this.work.deliver(job);
  }
}
