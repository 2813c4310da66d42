import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { newId } from '../../common/ids/ids';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { Database, afterCommit } from '../database/database';
import { OnJob } from '../queue/on-job.decorator';
import { QueueService } from '../queue/queue.service';
import { Sweeper } from '../queue/sweeper';
import { MailMessageEntity } from './entities/mail-message.entity';
import { MailTransport, createMailTransport } from './mail-transport';

export interface MailDraft {
  projectId: string | null;
  kind: string;
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  /** Extra headers, such as List-Unsubscribe (RFC 2369) and List-Unsubscribe-Post (RFC 8058). */
  headers?: Record<string, string>;
}

// Retry after 1 min, 5 min, 30 min and 2 h, then give up (the row stays, marked failed).
const RETRY_DELAYS_MS = [60_000, 300_000, 1_800_000, 7_200_000];
const LEASE_MS = 60_000;
const SWEEP_BATCH = 500;

/**
 * Emails go through the mail outbox: a row written in the caller's transaction, then a job sends
 * it. So an email exists exactly when the change that caused it commits, and a crash between the
 * two is repaired by the sweeper.
 */
@Injectable()
export class MailService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(MailService.name);
  private readonly transport: MailTransport;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly queue: QueueService,
    private readonly sweeper: Sweeper,
  ) {
    this.transport = createMailTransport(config);
  }

  onModuleInit(): void {
    this.sweeper.register({ name: 'emails', run: () => this.enqueueDueMail() });
  }

  onModuleDestroy(): void {
    this.transport.close();
  }

  /** Writes the email into the outbox inside `em`'s transaction; it is sent after commit. */
  async queueMail(em: EntityManager, draft: MailDraft): Promise<string> {
    const now = this.clock.now();
    const row = Object.assign(new MailMessageEntity(), {
      id: newId('mail'),
      projectId: draft.projectId,
      kind: draft.kind,
      recipient: draft.to,
      subject: draft.subject,
      textBody: draft.text,
      htmlBody: draft.html ?? null,
      headers: draft.headers ?? {},
      status: 'pending',
      attempts: 0,
      nextAttemptAt: now,
      lockedUntil: null,
      lastError: null,
      sentAt: null,
      createdAt: now,
    });
    await em.insert(MailMessageEntity, row);
    afterCommit(em, () => this.queue.enqueue('mail.send', { mail_id: row.id }, { dedupeId: row.id }));
    return row.id;
  }

  @OnJob('mail.send')
  async sendMail(payload: { mail_id: string }): Promise<void> {
    const mail = await this.claim(payload.mail_id);
    if (!mail) return; // sent already, or another worker holds it
    try {
      await this.transport.send({
        from: this.config.mailFrom,
        to: mail.recipient,
        subject: mail.subject,
        text: mail.textBody,
        html: mail.htmlBody,
        headers: { ...mail.headers, 'X-Mail-Id': mail.id },
      });
      const status = this.transport.kind === 'smtp' ? 'sent' : 'logged';
      await this.db.manager.update(
        MailMessageEntity,
        { id: mail.id },
        { status, sentAt: this.clock.now(), lockedUntil: null, lastError: null },
      );
    } catch (error) {
      await this.recordFailure(mail, (error as Error).message);
    }
  }

  /** The sweep: pending, due and unleased rows get a job again. */
  async enqueueDueMail(): Promise<number> {
    const now = this.clock.now();
    const due: { id: string }[] = await this.db.manager
      .createQueryBuilder(MailMessageEntity, 'mail')
      .select('mail.id', 'id')
      .where("mail.status = 'pending'")
      .andWhere('mail.next_attempt_at <= :now', { now })
      .andWhere('(mail.locked_until IS NULL OR mail.locked_until < :now)', { now })
      .orderBy('mail.next_attempt_at', 'ASC')
      .limit(SWEEP_BATCH)
      .getRawMany();
    for (const { id } of due) await this.queue.enqueue('mail.send', { mail_id: id }, { dedupeId: id });
    return due.length;
  }

  /** Takes a lease on a due row; concurrent jobs for one row get null. */
  private async claim(mailId: string): Promise<MailMessageEntity | null> {
    const now = this.clock.now();
    const result = await this.db.manager
      .createQueryBuilder()
      .update(MailMessageEntity)
      .set({ lockedUntil: new Date(now.getTime() + LEASE_MS), attempts: () => 'attempts + 1' })
      .where('id = :mailId', { mailId })
      .andWhere("status = 'pending'")
      .andWhere('next_attempt_at <= :now', { now })
      .andWhere('(locked_until IS NULL OR locked_until < :now)', { now })
      .execute();
    if (!result.affected) return null;
    return this.db.manager.findOneBy(MailMessageEntity, { id: mailId });
  }

  private async recordFailure(mail: MailMessageEntity, reason: string): Promise<void> {
    const delay = RETRY_DELAYS_MS[mail.attempts - 1];
    const now = this.clock.now();
    this.logger.warn(`Email ${mail.id} attempt ${mail.attempts} failed: ${reason}`);
    await this.db.manager.update(
      MailMessageEntity,
      { id: mail.id },
      delay === undefined
        ? { status: 'failed', lockedUntil: null, lastError: reason }
        : { nextAttemptAt: new Date(now.getTime() + delay), lockedUntil: null, lastError: reason },
    );
  }
}
