import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * Counts of one request waiting to be added to the daily counters (changelog_entry_counts), when
 * there is no Redis to hold them: the engagement recorder appends a row per entry and day, and the
 * engagement flusher moves them into the counters, deleting them in the same statement. Appending
 * never contends on a row, so a busy entry's counter row is updated once per flush, not per request.
 * No foreign key: an entry deleted meanwhile drops out at the flush.
 */
@Entity({ name: 'changelog_count_deltas' })
export class ChangelogCountDeltaEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  projectId: string;

  @Column({ type: 'varchar', length: 32 })
  entryId: string;

  @Column({ type: 'date' })
  day: string;

  @Column({ type: 'integer', default: 0 })
  widgetViews: number;

  @Column({ type: 'integer', default: 0 })
  pageViews: number;

  @Column({ type: 'integer', default: 0 })
  ctaClicks: number;

  @Column({ type: 'integer', default: 0 })
  anonymousReaders: number;
}
