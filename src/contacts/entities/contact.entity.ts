import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ProjectEntity } from '../../projects/entities/project.entity';
import type { ContactStage } from '../contact-stages';

export interface ConsentRecord {
  status: 'granted' | 'withdrawn';
  updated_at: string;
}

export type ContactDetails = Record<string, string | number | boolean>;

/** A person the project knows, met through any module. Emails are stored lower-cased. */
@Entity({ name: 'contacts' })
@Index('uq_contacts_project_email', ['projectId', 'email'], { unique: true, where: 'email IS NOT NULL' })
@Index('uq_contacts_project_user_id', ['projectId', 'userId'], { unique: true, where: 'user_id IS NOT NULL' })
@Index('ix_contacts_project_stage', ['projectId', 'stage', 'id'])
export class ContactEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  projectId: string;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'fk_contacts_project' })
  project?: ProjectEntity;

  @Column({ type: 'varchar', length: 254, nullable: true })
  email: string | null;

  @Column({ type: 'varchar', length: 256, nullable: true })
  userId: string | null;

  @Column({ type: 'varchar', length: 16 })
  stage: ContactStage;

  @Column({ type: 'jsonb', default: {} })
  consents: Record<string, ConsentRecord>;

  @Column({ type: 'jsonb', default: {} })
  details: ContactDetails;

  @Column({ type: 'boolean', default: false })
  paying: boolean;

  @Column({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz' })
  updatedAt: Date;
}
