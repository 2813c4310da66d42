import { Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ChangelogLabelEntity } from './changelog-label.entity';
import { ChangelogSubscriberEntity } from './changelog-subscriber.entity';

/** A label a subscriber follows. Deleting the label or the subscriber removes the row (cascade). */
@Entity({ name: 'changelog_subscriber_labels' })
@Index('ix_changelog_subscriber_labels_label', ['labelId', 'subscriberId'])
export class ChangelogSubscriberLabelEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  subscriberId: string;

  @PrimaryColumn({ type: 'varchar', length: 32 })
  labelId: string;

  @ManyToOne(() => ChangelogSubscriberEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'subscriber_id', foreignKeyConstraintName: 'fk_changelog_subscriber_labels_subscriber' })
  subscriber?: ChangelogSubscriberEntity;

  @ManyToOne(() => ChangelogLabelEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'label_id', foreignKeyConstraintName: 'fk_changelog_subscriber_labels_label' })
  label?: ChangelogLabelEntity;
}
