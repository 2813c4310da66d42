import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ProjectEntity } from '../../projects/entities/project.entity';
import { ChangelogSubscriberEntity } from './changelog-subscriber.entity';

/** What a subscriber's link token may do; a token of one purpose never works for another. */
export type SubscriberTokenPurpose = 'confirm' | 'unsubscribe' | 'labels';

/** The token of one link in one changelog email, stored as its SHA-256 hash. */
@Entity({ name: 'changelog_subscriber_tokens' })
export class ChangelogSubscriberTokenEntity {
  @PrimaryColumn({ type: 'char', length: 64 })
  tokenHash: string;

  @Column({ type: 'varchar', length: 32 })
  projectId: string;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'fk_changelog_subscriber_tokens_project' })
  project?: ProjectEntity;

  @Index('ix_changelog_subscriber_tokens_subscriber')
  @Column({ type: 'varchar', length: 32 })
  subscriberId: string;

  @ManyToOne(() => ChangelogSubscriberEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'subscriber_id', foreignKeyConstraintName: 'fk_changelog_subscriber_tokens_subscriber' })
  subscriber?: ChangelogSubscriberEntity;

  @Column({ type: 'varchar', length: 16 })
  purpose: SubscriberTokenPurpose;

  @Column({ type: 'timestamptz' })
  createdAt: Date;
}
