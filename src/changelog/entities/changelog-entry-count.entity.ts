import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ChangelogEntryEntity } from './changelog-entry.entity';

/**
 * An entry's counters for one UTC day (the per-entry numbers): views by surface, button clicks and
 * anonymous first reads. Written only by the engagement flusher, which adds what requests buffered
 * (in Redis or changelog_count_deltas) to these rows, so a busy widget costs no write to these rows
 * per request and no hot row is updated more than once per flush.
 */
@Entity({ name: 'changelog_entry_counts' })
@Index('ix_changelog_entry_counts_project_day', ['projectId', 'day'])
export class ChangelogEntryCountEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  entryId: string;

  @PrimaryColumn({ type: 'date' })
  day: string;

  @Column({ type: 'varchar', length: 32 })
  projectId: string;

  @ManyToOne(() => ChangelogEntryEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'entry_id', foreignKeyConstraintName: 'fk_changelog_entry_counts_entry' })
  entry?: ChangelogEntryEntity;

  @Column({ type: 'integer', default: 0 })
  widgetViews: number;

  @Column({ type: 'integer', default: 0 })
  pageViews: number;

  @Column({ type: 'integer', default: 0 })
  ctaClicks: number;

  /** Browsers without a user id that said the entry was new to them (`first_time_ids`). */
  @Column({ type: 'integer', default: 0 })
  anonymousReaders: number;
}
