import { Inject, Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { newId } from '../../common/ids/ids';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { ErasureRegistry } from '../erasure/erasure-registry.service';
import { DueRows, defineDueRows } from '../queue/due-rows.service';
import { pendingColumns } from '../queue/due-rows.queries';
import type { DueRowJob } from '../queue/job-catalog';
import { MailMessageEntity } from './entities/mail-message.entity';
import { MailTransport, createMailTransport } from './mail-transport';
import { deleteMailToPerson, insertMail } from './mail.queries';

interface MailDraft {
  projectId: string | null;
  kind: string;
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  /** Extra headers, such as List-Unsubscribe (RFC 2369) and List-Unsubscribe-Post (RFC 8058). */
  headers?: Record<string, string>;
}

/** The mail outbox as due rows: one send attempt per claim. */
export const MAIL_OUTBOX = defineDueRows<MailMessageEntity>({
  name: 'emails',
  entity: MailMessageEntity,
  job: 'mail.send',
  doneStatus: 'sent',
  // Retry after 1 min, 5 min, 30 min and 2 h, then give up (the row stays, marked failed).
  retryDelaysMs: [60_000, 300_000, 1_800_000, 7_200_000],
  // Well above nodemailer's own connection and socket timeouts.
  leaseMs: 60_000,
});

/**
 * What stays of an email once the SMTP server has accepted it: bodies and headers carry link
 * tokens (confirm, unsubscribe) and personal data, and the row is no longer needed to send it. The
 * kind, recipient, subject and times stay for the record. Until then (pending, retrying) the row
 * keeps everything a retry needs. Without SMTP_URL the outbox is the only copy of the email (the
 * log says where to read it), so logged rows keep their content.
 */
const DELIVERED_CONTENT = Object.freeze({ textBody: '[removed after delivery]', htmlBody: null, headers: {} });

/** An outbox row for `draft`, due now. */
export function newMailRow(draft: MailDraft, now: Date): MailMessageEntity {
  return Object.assign(new MailMessageEntity(), {
    id: newId('mail'),
    projectId: draft.projectId,
    kind: draft.kind,
    recipient: draft.to,
    subject: draft.subject,
    textBody: draft.text,
    htmlBody: draft.html ?? null,
    headers: draft.headers ?? {},
    ...pendingColumns(now),
    sentAt: null,
    createdAt: now,
  });
}

/**
 * Emails go through the mail outbox: a row written in the caller's transaction, then a job sends
 * it. So an email exists exactly when the change that caused it commits, and a crash between the
 * two is repaired by the sweeper. An SMTP 5xx reply fails the email at once; anything else is
 * retried on MAIL_OUTBOX's schedule.
 */
@Injectable()
export class MailService implements OnModuleInit, OnModuleDestroy {
  private readonly transport: MailTransport;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly dueRows: DueRows,
    private readonly erasure: ErasureRegistry,
  ) {
    this.transport = createMailTransport(config);
  }

  onModuleInit(): void {
    this.dueRows.registerSweep(MAIL_OUTBOX);
    this.erasure.contribute('mail_messages', deleteMailToPerson);
  }

  onModuleDestroy(): void {
    this.transport.close();
  }

  /** The newest queued and sent mail, newest first, at most `limit` of them. */
  latestMail(em: EntityManager, limit: number): Promise<MailMessageEntity[]> {
    return em.find(MailMessageEntity, { order: { createdAt: 'DESC', id: 'DESC' }, take: limit });
  }

  /** Writes the email into the outbox inside `em`'s transaction; it is sent after commit. */

  async queueMail(em: EntityManager, draft: MailDraft): Promise<string> {
    const row = newMailRow(draft, this.clock.now());
    await insertMail(em, row);
    this.dueRows.enqueueAfterCommit(em, MAIL_OUTBOX, row);
    return row.id;
  }

  sendMail({ id }: DueRowJob): Promise<void> {
    return this.dueRows.process(MAIL_OUTBOX, id, (mail) => this.deliver(mail));
  }

  private async deliver(mail: MailMessageEntity): Promise<Partial<MailMessageEntity>> {
    await this.transport.send({
      from: this.config.mailFrom,
      to: mail.recipient,
      subject: mail.subject,
      text: mail.textBody,
      html: mail.htmlBody,
      headers: { ...mail.headers, 'X-Mail-Id': mail.id },
    });
    if (this.transport.kind === 'log') return { status: 'logged', sentAt: this.clock.now() };
    return { status: 'sent', sentAt: this.clock.now(), ...DELIVERED_CONTENT };
  }
}
