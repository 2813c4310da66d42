import { Column, Entity, PrimaryColumn } from 'typeorm';

export type BillingEventOutcome = 'applied' | 'stale' | 'ignored';

/**
 * Every provider event handled, by the provider's event id: a redelivery finds its row and changes
 * nothing. No foreign key to projects: the record of what was processed outlives a deleted project.
 */
@Entity({ name: 'billing_events' })
export class BillingEventEntity {
  @PrimaryColumn({ type: 'varchar', length: 255 })
  id: string;

  @Column({ type: 'varchar', length: 100 })
  type: string;

  @Column({ type: 'varchar', length: 32, nullable: true })
  projectId: string | null;

  /** The provider's `created` time of the event. */
  @Column({ type: 'timestamptz' })
  occurredAt: Date;

  @Column({ type: 'varchar', length: 16 })
  outcome: BillingEventOutcome;

  @Column({ type: 'timestamptz' })
  receivedAt: Date;
}
