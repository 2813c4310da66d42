import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { DueRowColumns } from '../../queue/due-row-columns';

/**
 * pending: waiting to be sent; sent: accepted by the SMTP server; logged: no SMTP_URL, so written
 * to the log and kept here; failed: gave up after the last attempt.
 */
type MailStatus = 'pending' | 'sent' | 'logged' | 'failed';

/** Every email the service writes, stored first and sent by a job: the mail outbox. */
@Entity({ name: 'mail_messages' })
@Index('ix_mail_messages_due', ['status', 'nextAttemptAt'])
export class MailMessageEntity extends DueRowColumns<MailStatus> {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Index('ix_mail_messages_project')
  @Column({ type: 'varchar', length: 32, nullable: true })
  projectId: string | null;

  // Named, not imported: infra/ knows no platform module (the entity registry resolves the name).
  @ManyToOne('ProjectEntity', { onDelete: 'CASCADE', nullable: true })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'fk_mail_messages_project' })
  project?: object;
  /** What the email is for, such as "account.welcome" or "waitlist.confirmation". */
  @Column({ type: 'varchar', length: 64 })
  kind: string;

  @Column({ type: 'varchar', length: 254 })
  recipient: string;

  @Column({ type: 'varchar', length: 255 })
  subject: string;

  @Column({ type: 'text' })
  textBody: string;

  @Column({ type: 'text', nullable: true })
  htmlBody: string | null;

  /** Extra headers, such as List-Unsubscribe. */
  @Column({ type: 'jsonb', default: {} })
  headers: Record<string, string>;

  @Column({ type: 'timestamptz', nullable: true })
  sentAt: Date | null;

  @Column({ type: 'timestamptz' })
  createdAt: Date;
}
