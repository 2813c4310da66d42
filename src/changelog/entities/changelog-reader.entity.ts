import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ChangelogEntryEntity } from './changelog-entry.entity';

/**
 * A signed-in person (verified user id) who was shown an entry: their unseen count, the announcement
 * they never get again on any device, the `readers.signed_in` number and the after-reading groups.
 * One row per person and entry, the first time only.
 */
@Entity({ name: 'changelog_readers' })
@Index('ix_changelog_readers_project_user', ['projectId', 'userId'])
export class ChangelogReaderEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  entryId: string;

  @PrimaryColumn({ type: 'varchar', length: 256 })
  userId: string;

  @Column({ type: 'varchar', length: 32 })
  projectId: string;

  @ManyToOne(() => ChangelogEntryEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'entry_id', foreignKeyConstraintName: 'fk_changelog_readers_entry' })
  entry?: ChangelogEntryEntity;

  @Column({ type: 'timestamptz' })
  firstSeenAt: Date;
}
