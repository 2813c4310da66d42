import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ProjectEntity } from '../../entities/project.entity';

/**
 * A slug a project used to have. It redirects to the project's current slug (old links keep
 * working) until another project takes it, which it may only 30 days after `released_at`. One row
 * per slug: the project that released it last. A deleted project's slugs stay held (project null).
 */
@Entity({ name: 'project_slug_history' })
@Index('ix_project_slug_history_project', ['projectId'])
export class ProjectSlugHistoryEntity {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  slug: string;

  @Column({ type: 'varchar', length: 32, nullable: true })
  projectId: string | null;

  @ManyToOne(() => ProjectEntity, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'fk_project_slug_history_project' })
  project?: ProjectEntity;

  @Column({ type: 'timestamptz' })
  releasedAt: Date;
}
