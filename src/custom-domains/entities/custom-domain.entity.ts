import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ProjectEntity } from '../../projects/entities/project.entity';

export const UQ_CUSTOM_DOMAINS_VERIFIED_HOSTNAME = 'uq_custom_domains_verified_hostname';
export const UQ_CUSTOM_DOMAINS_PROJECT_HOSTNAME = 'uq_custom_domains_project_hostname';
const IX_CUSTOM_DOMAINS_NEXT_CHECK = 'ix_custom_domains_next_check';

/**
 * A project's claim on a hostname; once verified, the hostname serves the project's hosted pages.
 * Several projects may claim one hostname while it is pending; only one can hold it verified, and
 * the partial unique index over verified rows decides which, also when two verify at once.
 */
@Entity({ name: 'custom_domains' })
@Index('ix_custom_domains_project_id', ['projectId', 'id'])
@Index(UQ_CUSTOM_DOMAINS_PROJECT_HOSTNAME, ['projectId', 'hostname'], { unique: true })
@Index(UQ_CUSTOM_DOMAINS_VERIFIED_HOSTNAME, ['hostname'], { unique: true, where: 'verified_at IS NOT NULL' })
@Index(IX_CUSTOM_DOMAINS_NEXT_CHECK, ['nextCheckAt'], { where: 'next_check_at IS NOT NULL' })
export class CustomDomainEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  projectId: string;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'fk_custom_domains_project' })
  project?: ProjectEntity;

  /** Normalized: lower-case, no trailing dot. */
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

  /**
   * Verified hostnames only: when the daily re-check (domain-recheck.service.ts) looks at the TXT
   * record again; null while pending.
   */
  @Column({ type: 'timestamptz', nullable: true })
  nextCheckAt: Date | null;

  /** Verified hostnames only: the first re-check of the current run that found the TXT record gone. */
  @Column({ type: 'timestamptz', nullable: true })
  failingSince: Date | null;

  /**
   * When the current claim began: when the hostname was added, or when the re-check stopped serving
   * it. A pending claim lapses CLAIM_TTL_MS after this (domain-claims.ts).
   */
  @Column({ type: 'timestamptz' })
  pendingSince: Date;

  @Column({ type: 'timestamptz' })
  createdAt: Date;
}
