import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ProjectEntity } from '../../projects/entities/project.entity';

export const WEBHOOK_FORMATS = ['json', 'chat_a', 'chat_b'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];
/** enabled, or disabled: switched off after 20 consecutive failed deliveries (or by the owner). */
export type WebhookStatus = 'enabled' | 'disabled';

/**
 * A project's webhook endpoint (spec: Webhook endpoint). The URL and the signing secret are kept
 * sealed with ENCRYPTION_KEY (common/crypto/secret-box.ts): a URL can itself be a credential (chat
 * services put theirs in the path), and the secret must be readable to sign. `url_masked` is what
 * every answer after the first shows.
 */
@Entity({ name: 'webhook_endpoints' })
@Index('ix_webhook_endpoints_project_id', ['projectId', 'id'])
export class WebhookEndpointEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  projectId: string;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'fk_webhook_endpoints_project' })
  project?: ProjectEntity;

  @Column({ type: 'text' })
  urlCiphertext: string;

  /** Scheme and host, with the rest of the URL hidden, e.g. "https://hooks.example.com/…/a1b2". */
  @Column({ type: 'varchar', length: 300 })
  urlMasked: string;

  /** Event types, or ["*"] for every type, future ones included. */
  @Column({ type: 'jsonb' })
  events: string[];

  @Column({ type: 'varchar', length: 16 })
  format: WebhookFormat;

  @Column({ type: 'varchar', length: 16 })
  status: WebhookStatus;

  /** Why it was switched off, for the dashboard card. */
  @Column({ type: 'text', nullable: true })
  disabledReason: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  disabledAt: Date | null;

  /** Failed deliveries in a row; any success resets it; 20 switches the endpoint off. */
  @Column({ type: 'int', default: 0 })
  consecutiveFailures: number;

  @Column({ type: 'text' })
  secretCiphertext: string;

  /** After a rotation, the old secret also signs until this time. */
  @Column({ type: 'text', nullable: true })
  previousSecretCiphertext: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  previousSecretValidUntil: Date | null;

  @Column({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz' })
  updatedAt: Date;
}
