import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ProjectEntity } from '../../projects/entities/project.entity';

/** One project's read-only payment-processor connection (at most one per project: the unique index decides). */
@Entity({ name: 'revenue_connections' })
@Index('uq_revenue_connections_project', ['projectId'], { unique: true })
@Index('ix_revenue_connections_account', ['accountId'])
export class RevenueConnectionEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  projectId: string;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'fk_revenue_connections_project' })
  project?: ProjectEntity;

  /** The owning account when the project has one: Indie allows one connection per account. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  accountId: string | null;

  @Column({ type: 'varchar', length: 16 })
  provider: 'stripe';

  /** The restricted key, sealed with ENCRYPTION_KEY; never answered. */
  @Column({ type: 'text' })
  keyCiphertext: string;

  @Column({ type: 'varchar', length: 4 })
  keyLastFour: string;

  @Column({ type: 'varchar', length: 8 })
  keyMode: 'live' | 'test';

  /** The read permissions the key was found to have when connected. */
  @Column({ type: 'jsonb' })
  permissions: string[];

  @Column({ type: 'timestamptz' })
  connectedAt: Date;

  /** Processor time (Unix seconds) from which the next incremental sync reads the events list. */
  @Column({ type: 'bigint', nullable: true })
  eventsSince: string | null;

  /** When the last sync finished; the figures are as of this time. */
  @Column({ type: 'timestamptz', nullable: true })
  lastSyncedAt: Date | null;

  /** When the last full pass (backfill or nightly reconcile) finished. */
  @Column({ type: 'timestamptz', nullable: true })
  lastFullSyncAt: Date | null;
}
