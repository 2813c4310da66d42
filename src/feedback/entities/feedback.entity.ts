import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ProjectEntity } from '../../projects/entities/project.entity';
import type { CategoryHint, FeedbackClassification } from '../classifier/classify-feedback';

/**
 * One piece of feedback, classified on arrival. The submitter's email (lower-cased) is stored here
 * and only ever leaves through the secret-key `GET /v1/feedback/{feedback_id}`.
 */
@Entity({ name: 'feedback' })
@Index('ix_feedback_project_id', ['projectId', 'id'])
@Index('ix_feedback_project_classification', ['projectId', 'classification', 'id'])
@Index('ix_feedback_project_user_id', ['projectId', 'userId', 'id'])
// Serves the list filter and the per-entry counts of the changelog (one GROUP BY over this index).
@Index('ix_feedback_project_changelog_entry', ['projectId', 'changelogEntryId', 'id'])
export class FeedbackEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  projectId: string;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'fk_feedback_project' })
  project?: ProjectEntity;

  /** Trimmed; 10 to 2000 characters. */
  @Column({ type: 'text' })
  feedbackText: string;

  @Column({ type: 'varchar', length: 16 })
  classification: FeedbackClassification;

  /** 0 to 1, two decimals: the classifier's relative score, not a calibrated probability. */
  @Column({ type: 'real' })
  confidence: number;

  @Column({ type: 'varchar', length: 140 })
  summary: string;

  @Column({ type: 'varchar', length: 256, nullable: true })
  userId: string | null;

  @Column({ type: 'varchar', length: 254, nullable: true })
  email: string | null;

  @Column({ type: 'varchar', length: 2048, nullable: true })
  pageUrl: string | null;

  @Column({ type: 'smallint', nullable: true })
  rating: number | null;

  @Column({ type: 'varchar', length: 16, nullable: true })
  categoryHint: CategoryHint | null;

  /** A published changelog entry of the project, or null. No foreign key: feedback outlives a deleted entry. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  changelogEntryId: string | null;

  @Column({ type: 'timestamptz' })
  createdAt: Date;
}
