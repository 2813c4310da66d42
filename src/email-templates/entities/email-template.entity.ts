import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ProjectEntity } from '../../projects/entities/project.entity';
import type { EmailTemplateName } from '../email-template-catalog';

/** A project's own text for one of its emails; no row means the default text. */
@Entity({ name: 'email_templates' })
export class EmailTemplateEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  projectId: string;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'fk_email_templates_project' })
  project?: ProjectEntity;

  @PrimaryColumn({ type: 'varchar', length: 64 })
  name: EmailTemplateName;

  @Column({ type: 'varchar', length: 200 })
  subject: string;

  @Column({ type: 'text' })
  body: string;

  @Column({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz' })
  updatedAt: Date;
}
