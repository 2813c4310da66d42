import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ProjectEntity } from '../../projects/entities/project.entity';

/** What one customer paid per month in one currency at the last sync: the baseline the next sync's movements are measured from. */
@Entity({ name: 'revenue_customer_mrr' })
export class RevenueCustomerMrrEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  projectId: string;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'fk_revenue_customer_mrr_project' })
  project?: ProjectEntity;

  @PrimaryColumn({ type: 'varchar', length: 255 })
  customerId: string;

  @PrimaryColumn({ type: 'varchar', length: 3 })
  currency: string;

  @Column({ type: 'bigint' })
  mrr: string;

  @Column({ type: 'timestamptz' })
  updatedAt: Date;
}

/** new, expansion, contraction, churned or reactivated: one customer's MRR change in one currency. */
type MovementKind = 'new' | 'expansion' | 'contraction' | 'churned' | 'reactivated';

/** One MRR movement, dated when it happened (or when a sync first saw it). */
@Entity({ name: 'revenue_movements' })
@Index('ix_revenue_movements_project_at', ['projectId', 'occurredAt'])
export class RevenueMovementEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  projectId: string;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'fk_revenue_movements_project' })
  project?: ProjectEntity;

  @Column({ type: 'varchar', length: 255 })
  customerId: string;

  @Column({ type: 'varchar', length: 3 })
  currency: string;

  @Column({ type: 'varchar', length: 16 })
  kind: MovementKind;

  @Column({ type: 'bigint' })
  fromMrr: string;

  @Column({ type: 'bigint' })
  toMrr: string;

  @Column({ type: 'timestamptz' })
  occurredAt: Date;
}
