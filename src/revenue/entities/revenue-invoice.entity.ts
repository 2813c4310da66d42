import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ProjectEntity } from '../../projects/entities/project.entity';

/** A processor invoice: only what after-reading and attribution need (who paid how much, when). */
@Entity({ name: 'revenue_invoices' })
@Index('ix_revenue_invoices_customer_paid', ['projectId', 'customerId', 'paidAt'])
export class RevenueInvoiceEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  projectId: string;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'fk_revenue_invoices_project' })
  project?: ProjectEntity;

  @PrimaryColumn({ type: 'varchar', length: 255 })
  invoiceId: string;

  @Column({ type: 'varchar', length: 255 })
  customerId: string;

  @Column({ type: 'varchar', length: 16 })
  status: string;

  @Column({ type: 'varchar', length: 3 })
  currency: string;

  /** Minor units, as the processor gives them. */
  @Column({ type: 'bigint' })
  amountPaid: string;

  /** Null until paid. */
  @Column({ type: 'timestamptz', nullable: true })
  paidAt: Date | null;

  @Column({ type: 'timestamptz' })
  syncedAt: Date;
}
