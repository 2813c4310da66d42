import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A batch of buffered engagement (a renamed Redis hash) that has been added to the counters. It is
 * written in the transaction that adds the batch, so a flusher that dies between that COMMIT and
 * deleting the hash leaves a batch the next flusher recognises and deletes without adding it twice.
 * Rows are kept a day, far longer than any batch waits.
 */
@Entity({ name: 'changelog_engagement_batches' })
@Index('ix_changelog_engagement_batches_flushed_at', ['flushedAt'])
export class ChangelogEngagementBatchEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'timestamptz' })
  flushedAt: Date;
}
