import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ProjectEntity } from '../../projects/entities/project.entity';

export const LABEL_COLOURS = ['gray', 'red', 'orange', 'amber', 'green', 'teal', 'blue', 'indigo', 'purple', 'pink'] as const;
export type LabelColour = (typeof LABEL_COLOURS)[number];

export const UQ_LABELS_PROJECT_SLUG = 'uq_changelog_labels_project_slug';

/** A label of the project's changelog (spec: Label). Entries and subscribers refer to it by id. */
@Entity({ name: 'changelog_labels' })
@Index(UQ_LABELS_PROJECT_SLUG, ['projectId', 'slug'], { unique: true })
export class ChangelogLabelEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  projectId: string;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'fk_changelog_labels_project' })
  project?: ProjectEntity;

  @Column({ type: 'varchar', length: 50 })
  name: string;

  @Column({ type: 'varchar', length: 40 })
  slug: string;

  @Column({ type: 'varchar', length: 16 })
  colour: LabelColour;

  @Column({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz' })
  updatedAt: Date;
}
