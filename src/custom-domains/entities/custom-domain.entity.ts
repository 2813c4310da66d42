import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ProjectEntity } from '../../projects/entities/project.entity';

export const UQ_CUSTOM_DOMAINS_HOSTNAME = 'uq_custom_domains_hostname';

/**
 * A hostname that serves a project's hosted changelog and feeds once verified. One project per
 * hostname across the whole service: the unique index decides, also under concurrent adds.
 */
@Entity({ name: 'custom_domains' })
@Index('ix_custom_domains_project_id', ['projectId', 'id'])
export class CustomDomainEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  projectId: string;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'fk_custom_domains_project' })
  project?: ProjectEntity;

  /** Normalized: lower-case, no trailing dot. */
  @Index(UQ_CUSTOM_DOMAINS_HOSTNAME, { unique: true })
  @Column({ type: 'varchar', length: 253 })
  hostname: string;

  /** The value expected in the TXT record (random, not secret: it is published in DNS). */
  @Column({ type: 'varchar', length: 64 })
  verificationToken: string;

  @Column({ type: 'timestamptz', nullable: true })
  verifiedAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  lastCheckedAt: Date | null;

  /** Why the last check failed, in words for the owner; null after a success or before any check. */
  @Column({ type: 'varchar', length: 500, nullable: true })
  lastCheckError: string | null;

  @Column({ type: 'timestamptz' })
  createdAt: Date;
}
