import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A fixed-window rate-limit counter kept in PostgreSQL, for API processes that share no Redis
 * (rate-limit-counters.queries.ts): one row per counter key until its window ends.
 */
@Entity({ name: 'rate_limit_counters' })
@Index('ix_rate_limit_counters_expires_at', ['expiresAt'])
export class RateLimitCounterEntity {
  @PrimaryColumn({ type: 'text' })
  key: string;

  @Column({ type: 'int' })
  hits: number;

  @Column({ type: 'timestamptz' })
  expiresAt: Date;
}
