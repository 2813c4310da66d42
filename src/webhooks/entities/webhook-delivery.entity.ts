import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { DueRowColumns } from '../../infra/queue/due-row-columns';
import { EventEntity } from '../../events/entities/event.entity';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';

/** pending: to be sent (or retried); delivered: a 2xx came back in time; failed: gave up. */
type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/**
 * One event to one endpoint, as a due row (infra/queue/due-rows.service.ts): written with the event in the
 * transaction of the change, retried on WEBHOOK_RETRY_DELAYS with the same event id. The last
 * attempt's outcome is kept on the row, and every attempt in webhook_delivery_attempts, for the
 * delivery log (30 days).
 */
@Entity({ name: 'webhook_deliveries' })
@Index('ix_webhook_deliveries_due', ['status', 'nextAttemptAt'])
@Index('ix_webhook_deliveries_endpoint', ['endpointId', 'createdAt'])
export class WebhookDeliveryEntity extends DueRowColumns<DeliveryStatus> {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  projectId: string;

  @Column({ type: 'varchar', length: 32 })
  endpointId: string;

  @ManyToOne(() => WebhookEndpointEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'endpoint_id', foreignKeyConstraintName: 'fk_webhook_deliveries_endpoint' })
  endpoint?: WebhookEndpointEntity;

  @Index('ix_webhook_deliveries_event')
  @Column({ type: 'varchar', length: 32 })
  eventId: string;

  @ManyToOne(() => EventEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'event_id', foreignKeyConstraintName: 'fk_webhook_deliveries_event' })
  event?: EventEntity;

  @Column({ type: 'varchar', length: 64 })
  eventType: string;

  /** The HTTP status of the last attempt; null when no answer came (timeout, connection error). */
  @Column({ type: 'smallint', nullable: true })
  responseStatus: number | null;

  /** The start of the last answer's body, for the log. */
  @Column({ type: 'varchar', length: 500, nullable: true })
  responseExcerpt: string | null;

  @Column({ type: 'int', nullable: true })
  durationMs: number | null;

  @Column({ type: 'timestamptz', nullable: true })
  lastAttemptAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  deliveredAt: Date | null;

  @Column({ type: 'timestamptz' })
  createdAt: Date;
}
