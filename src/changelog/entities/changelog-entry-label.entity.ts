import { Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ChangelogEntryEntity } from './changelog-entry.entity';
import { ChangelogLabelEntity } from './changelog-label.entity';

/** A label on an entry. Deleting the label or the entry removes the row (cascade). */
@Entity({ name: 'changelog_entry_labels' })
@Index('ix_changelog_entry_labels_label', ['labelId', 'entryId'])
export class ChangelogEntryLabelEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  entryId: string;

  @PrimaryColumn({ type: 'varchar', length: 32 })
  labelId: string;

  @ManyToOne(() => ChangelogEntryEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'entry_id', foreignKeyConstraintName: 'fk_changelog_entry_labels_entry' })
  entry?: ChangelogEntryEntity;

  @ManyToOne(() => ChangelogLabelEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'label_id', foreignKeyConstraintName: 'fk_changelog_entry_labels_label' })
  label?: ChangelogLabelEntity;
}
