import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ProjectEntity } from '../../projects/entities/project.entity';

/**
 * One Idempotency-Key per credential with the answer its request produced. A row exists only once
 * the request's effect committed: it is written in that same transaction, so a crash leaves either
 * both or neither (the claim while the request runs is a transaction-scoped lock, never a row).
 */
@Entity({ name: 'idempotency_records' })
@Index('ix_idempotency_records_expires_at', ['expiresAt'])
@Index('ix_idempotency_records_project', ['projectId'])
export class IdempotencyRecordEntity {
  /** The API key id (or dashboard account id) the key belongs to: keys are scoped per credential. */
  @PrimaryColumn({ type: 'varchar', length: 40 })
  scope: string;

  @PrimaryColumn({ type: 'varchar', length: 80 })
  key: string;

  /**
   * The project the request acted on, so that erasing a person finds the answers that name them
   * (indexed: an erasure reads only its project's answers); null for account-wide requests.
   */
  @Column({ type: 'varchar', length: 32, nullable: true })
  projectId: string | null;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE', nullable: true })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'fk_idempotency_records_project' })
  project?: ProjectEntity;

  /** SHA-256 of method, route and canonical body: a different body under the same key is a conflict. */
  @Column({ type: 'char', length: 64 })
  requestHash: string;

  @Column({ type: 'int' })
  responseStatus: number;

  /** The headers a replay repeats (Content-Type, ETag, X-Request-Id, Location…). */
  @Column({ type: 'jsonb' })
  responseHeaders: Record<string, string>;

  /**
   * The body exactly as sent: text, not jsonb, which would reorder keys and change spacing. Sealed
   * with ENCRYPTION_KEY when `responseSealed` (an answer that shows a secret once: an API key, a
   * webhook's signing secret and URL), so the secret is no easier to read here than where it is kept.
   */
  @Column({ type: 'text' })
  responseBody: string;

  @Column({ type: 'boolean', default: false })
  responseSealed: boolean;

  @Column({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz' })
  expiresAt: Date;
}
