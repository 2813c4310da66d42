import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ProjectEntity } from '../../projects/entities/project.entity';
import { DueRowColumns } from '../../infra/queue/due-row-columns';
import { ChangelogEntryEntity } from './changelog-entry.entity';

/** pending: emails still to write; sent: every matching subscriber has one in the mail outbox. */
type MailingStatus = 'pending' | 'sent' | 'failed';

/**
 * The subscriber emails of one published entry, as a due row: one per entry (unique), written in
 * the publishing transaction. A worker writes the emails in batches, each batch in one transaction
 * that also moves `cursor` (the last subscriber id done), so a crash resumes where it stopped and
 * nobody gets two emails.
 */
@Entity({ name: 'changelog_mailings' })
@Index('ix_changelog_mailings_due', ['status', 'nextAttemptAt'])
export class ChangelogMailingEntity extends DueRowColumns<MailingStatus> {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  projectId: string;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'fk_changelog_mailings_project' })
  project?: ProjectEntity;

  @Index('uq_changelog_mailings_entry', { unique: true })
  @Column({ type: 'varchar', length: 32 })
  entryId: string;

  @ManyToOne(() => ChangelogEntryEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'entry_id', foreignKeyConstraintName: 'fk_changelog_mailings_entry' })
  entry?: ChangelogEntryEntity;

  /** The last subscriber id (ids sort by creation) whose email is written; null before the first batch. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  cursor: string | null;

  @Column({ type: 'int', default: 0 })
  emailsQueued: number;

  @Column({ type: 'timestamptz' })
  createdAt: Date;
}
