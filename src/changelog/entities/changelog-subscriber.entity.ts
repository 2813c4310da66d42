import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ProjectEntity } from '../../projects/entities/project.entity';

/**
 * Someone who gets changelog emails (spec: Changelog subscriber). Labels live in
 * changelog_subscriber_labels; none means every public entry. Unsubscribing deletes the row.
 */
@Entity({ name: 'changelog_subscribers' })
@Index('uq_changelog_subscribers_project_email', ['projectId', 'email'], { unique: true })
@Index('ix_changelog_subscribers_project_id', ['projectId', 'id'])
export class ChangelogSubscriberEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  projectId: string;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'fk_changelog_subscribers_project' })
  project?: ProjectEntity;

  /** Trimmed and lower-cased. */
  @Column({ type: 'varchar', length: 254 })
  email: string;

  @Column({ type: 'boolean' })
  confirmed: boolean;

  @Column({ type: 'timestamptz', nullable: true })
  confirmedAt: Date | null;

  @Column({ type: 'timestamptz' })
  createdAt: Date;
}
