import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ProjectEntity } from '../../entities/project.entity';

/** One slug change of a project; the counted ones in the last 30 days decide SLUG_CHANGE_LIMIT_REACHED. */
@Entity({ name: 'project_slug_changes' })
@Index('ix_project_slug_changes_project_changed', ['projectId', 'changedAt'])
export class ProjectSlugChangeEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  projectId: string;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'fk_project_slug_changes_project' })
  project?: ProjectEntity;

  @Column({ type: 'varchar', length: 40 })
  fromSlug: string;

  @Column({ type: 'varchar', length: 40 })
  toSlug: string;

  /** False for the first rename away from the generated slug, which is free. */
  @Column({ type: 'boolean' })
  counted: boolean;

  @Column({ type: 'timestamptz' })
  changedAt: Date;
}
