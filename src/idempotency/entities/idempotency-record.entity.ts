import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

export type IdempotencyState = 'in_progress' | 'completed';

/** One claimed Idempotency-Key per credential, with the response it produced. */
@Entity({ name: 'idempotency_records' })
@Index('ix_idempotency_records_expires_at', ['expiresAt'])
export class IdempotencyRecordEntity {
  /** The API key id (or dashboard account id) the key belongs to: keys are scoped per credential. */
  @PrimaryColumn({ type: 'varchar', length: 40 })
  scope: string;

  @PrimaryColumn({ type: 'varchar', length: 80 })
  key: string;

  /** SHA-256 of method, route and canonical body: a different body under the same key is a conflict. */
  @Column({ type: 'char', length: 64 })
  requestHash: string;

  @Column({ type: 'varchar', length: 16 })
  state: IdempotencyState;

  @Column({ type: 'int', nullable: true })
  responseStatus: number | null;

  @Column({ type: 'jsonb', nullable: true })
  responseHeaders: Record<string, string> | null;

  @Column({ type: 'jsonb', nullable: true })
  responseBody: unknown;

  @Column({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz' })
  expiresAt: Date;
}
