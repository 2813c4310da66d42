import { Column, Entity, Index, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import { ProjectEntity } from '../../projects/entities/project.entity';

const UQ_BILLING_ACCOUNTS_CUSTOMER = 'uq_billing_accounts_customer_id';

/**
 * A project's customer at the payment provider, created by the first completed checkout. Billing
 * is per project because the plan is (projects.plan); the provider's ids stay here, not on the project.
 */
@Entity({ name: 'billing_accounts' })
export class BillingAccountEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  projectId: string;

  @OneToOne(() => ProjectEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'fk_billing_accounts_project' })
  project?: ProjectEntity;

  @Index(UQ_BILLING_ACCOUNTS_CUSTOMER, { unique: true })
  @Column({ type: 'varchar', length: 255 })
  customerId: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  subscriptionId: string | null;

  /** The subscription's status as the provider last reported it (`active`, `past_due`, `canceled`…). */
  @Column({ type: 'varchar', length: 32, nullable: true })
  subscriptionStatus: string | null;

  /**
   * The `created` time of the newest provider event applied here. The provider does not promise
   * order; an older event arriving later changes nothing.
   */
  @Column({ type: 'timestamptz' })
  lastEventAt: Date;

  @Column({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz' })
  updatedAt: Date;
}
