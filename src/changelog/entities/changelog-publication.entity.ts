import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ProjectEntity } from '../../projects/entities/project.entity';
import { DueRowColumns } from '../../infra/queue/due-row-columns';
import { ChangelogEntryEntity } from './changelog-entry.entity';

/**
 * pending: waiting for its time; published: the entry went live through this row; skipped: the
 * entry was no longer scheduled for this time (rescheduled, published by hand, archived, deleted);
 * failed: gave up after the last attempt.
 */
type PublicationStatus = 'pending' | 'published' | 'skipped' | 'failed';

/**
 * A scheduled publication as a due row (infra/queue/due-rows.service.ts): due at the entry's
 * `scheduled_at`. Rescheduling writes a new row; the old one finds the entry's time changed and
 * ends as `skipped`. Publishing locks the entry row, so it happens at most once.
 */
@Entity({ name: 'changelog_publications' })
@Index('ix_changelog_publications_due', ['status', 'nextAttemptAt'])
export class ChangelogPublicationEntity extends DueRowColumns<PublicationStatus> {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  projectId: string;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'fk_changelog_publications_project' })
  project?: ProjectEntity;

  @Index('ix_changelog_publications_entry')
  @Column({ type: 'varchar', length: 32 })
  entryId: string;

  @ManyToOne(() => ChangelogEntryEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'entry_id', foreignKeyConstraintName: 'fk_changelog_publications_entry' })
  entry?: ChangelogEntryEntity;

  /** The entry's `scheduled_at` this row was made for. */
  @Column({ type: 'timestamptz' })
  scheduledFor: Date;

  @Column({ type: 'timestamptz' })
  createdAt: Date;
}
