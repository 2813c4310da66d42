import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';

/**
 * One HTTP attempt of a delivery, for the delivery log (like Svix's message attempts): written in
 * the statement that records the attempt's answer on the delivery (deliveries.queries.ts,
 * recordAttempt), deleted with its delivery (retention, endpoint deletion) by the foreign key.
 */
@Entity({ name: 'webhook_delivery_attempts' })
@Index('ix_webhook_delivery_attempts_delivery', ['deliveryId', 'attemptedAt'])
export class WebhookDeliveryAttemptEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  projectId: string;

  @Column({ type: 'varchar', length: 32 })
  deliveryId: string;

  @ManyToOne(() => WebhookDeliveryEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'delivery_id', foreignKeyConstraintName: 'fk_webhook_delivery_attempts_delivery' })
  delivery?: WebhookDeliveryEntity;

  /** The delivery's attempt count when this one was made: 1 is the first try of a schedule. */
  @Column({ type: 'int' })
  attempt: number;

  @Column({ type: 'timestamptz' })
  attemptedAt: Date;

  /** The HTTP status; null when no answer came (timeout, connection error, refused address). */
  @Column({ type: 'smallint', nullable: true })
  responseStatus: number | null;

  /** Why the attempt failed; null on a 2xx. */
  @Column({ type: 'varchar', length: 1000, nullable: true })
  error: string | null;

  @Column({ type: 'int' })
  durationMs: number;

  /** The start of the answer's body (EXCERPT_LENGTH), cleared by a contact's erasure like the delivery's. */
  @Column({ type: 'varchar', length: 500, nullable: true })
  responseExcerpt: string | null;
}
