import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ProjectEntity } from '../../projects/entities/project.entity';
import type { SubscriptionTerms } from '../mrr';

/** A processor subscription as the MRR method reads it (see mrr.ts). */
@Entity({ name: 'revenue_subscriptions' })
@Index('ix_revenue_subscriptions_customer', ['projectId', 'customerId'])
export class RevenueSubscriptionEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  projectId: string;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'fk_revenue_subscriptions_project' })
  project?: ProjectEntity;

  @PrimaryColumn({ type: 'varchar', length: 255 })
  subscriptionId: string;

  @Column({ type: 'varchar', length: 255 })
  customerId: string;

  @Column({ type: 'varchar', length: 32 })
  status: string;

  /** Items, discounts and dates, normalised from the processor's object. */
  @Column({ type: 'jsonb' })
  terms: SubscriptionTerms;

  @Column({ type: 'timestamptz' })
  syncedAt: Date;
}
