import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ProjectEntity } from '../../projects/entities/project.entity';

/** A processor customer, matched to a contact when possible (unmatched customers still count). */
@Entity({ name: 'revenue_customers' })
@Index('ix_revenue_customers_contact', ['projectId', 'contactId'])
export class RevenueCustomerEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  projectId: string;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'fk_revenue_customers_project' })
  project?: ProjectEntity;

  /** The processor's customer id (cus_…). */
  @PrimaryColumn({ type: 'varchar', length: 255 })
  customerId: string;

  /** Lower-cased. */
  @Column({ type: 'varchar', length: 254, nullable: true })
  email: string | null;

  /** `user_id` from the customer's metadata. */
  @Column({ type: 'varchar', length: 256, nullable: true })
  userId: string | null;

  @Column({ type: 'varchar', length: 32, nullable: true })
  contactId: string | null;

  @Column({ type: 'boolean', default: false })
  deleted: boolean;

  @Column({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz' })
  syncedAt: Date;
}
