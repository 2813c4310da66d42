import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ProjectEntity } from '../../projects/entities/project.entity';

export type ApiKeyType = 'secret' | 'publishable';
export type ApiKeyMode = 'live' | 'test';

/** Keys are stored as SHA-256 hashes; only a visible prefix and the last four characters remain readable. */
@Entity({ name: 'api_keys' })
@Index('ix_api_keys_project_type', ['projectId', 'type'])
export class ApiKeyEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  projectId: string;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'fk_api_keys_project' })
  project?: ProjectEntity;

  @Column({ type: 'varchar', length: 16 })
  type: ApiKeyType;

  @Column({ type: 'varchar', length: 8 })
  mode: ApiKeyMode;

  /** The key's prefix as shown in lists, such as "svc_live_". */
  @Column({ type: 'varchar', length: 20 })
  prefix: string;

  @Column({ type: 'varchar', length: 4 })
  lastFour: string;

  @Index('uq_api_keys_secret_hash', { unique: true })
  @Column({ type: 'char', length: 64 })
  secretHash: string;

  @Column({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  /** Written at most once a minute per key, after the response (auth/key-usage.service.ts). */
  @Column({ type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;
}
