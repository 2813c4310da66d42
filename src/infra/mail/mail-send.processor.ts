import { Injectable } from '@nestjs/common';
import type { DueRowJob } from '../queue/job-catalog';
import { OnJob } from '../queue/on-job.decorator';
import { MailService } from './mail.service';

/** The `mail.send` job: an email from the outbox, run by MailService, which also queues it. */
@Injectable()
export class MailSendProcessor {
  constructor(private readonly work: MailService) {}

  @OnJob('mail.send')
  handle(job: DueRowJob): Promise<void> {
    return this.work.sendMail(job);
  }
}
