import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { DueRowColumns } from '../../infra/queue/due-row-columns';
import { RevenueConnectionEntity } from './revenue-connection.entity';

/** pending: queued or running (locked_until says which); done; failed after its last retry. */
type RevenueSyncStatus = 'pending' | 'done' | 'failed';
/** backfill: the first full pass; incremental: the events list since the last sync; reconcile: the nightly full pass. */
export type RevenueSyncKind = 'backfill' | 'incremental' | 'reconcile';
/** Where a full pass is: each list in turn, then the figures. */
export type RevenueSyncPhase = 'customers' | 'subscriptions' | 'invoices' | 'events' | 'figures';

interface RevenueSyncProgress {
  customers: number;
  subscriptions: number;
  invoices: number;
  events: number;
}

/**
 * One sync run as a due row (infra/queue/due-rows.service.ts). Its cursor (`phase`, `startingAfter`) is
 * written with each page, in the page's transaction, so a run that dies resumes after the last
 * stored page.
 */
@Entity({ name: 'revenue_syncs' })
@Index('ix_revenue_syncs_due', ['status', 'nextAttemptAt'])
@Index('ix_revenue_syncs_connection', ['connectionId', 'id'])
export class RevenueSyncEntity extends DueRowColumns<RevenueSyncStatus> {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  projectId: string;

  @Column({ type: 'varchar', length: 32 })
  connectionId: string;

  @ManyToOne(() => RevenueConnectionEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'connection_id', foreignKeyConstraintName: 'fk_revenue_syncs_connection' })
  connection?: RevenueConnectionEntity;

  @Column({ type: 'varchar', length: 16 })
  kind: RevenueSyncKind;

  @Column({ type: 'varchar', length: 16 })
  phase: RevenueSyncPhase;

  /** The last object id stored in this phase: the next page starts after it. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  startingAfter: string | null;

  @Column({ type: 'jsonb' })
  progress: RevenueSyncProgress;

  @Column({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  startedAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  finishedAt: Date | null;
}
