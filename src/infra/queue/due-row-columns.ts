import { Column } from 'typeorm';

/**
 * The columns of the due-row convention (due-rows.queries.ts, DueRow), declared once: an entity
 * that is a due row extends this class, adds its id and its own columns, and indexes
 * (status, next_attempt_at) under a name of its own.
 */
export abstract class DueRowColumns<Status extends string> {
  /** 'pending' until a success state or 'failed'. */
  @Column({ type: 'varchar', length: 16 })
  status: Status;

  /** Attempts started, counted when a worker claims the row. */
  @Column({ type: 'int', default: 0 })
  attempts: number;

  @Column({ type: 'timestamptz' })
  nextAttemptAt: Date;

  /** A worker's lease on the row; the sweeper leaves leased rows alone. */
  @Column({ type: 'timestamptz', nullable: true })
  lockedUntil: Date | null;

  @Column({ type: 'text', nullable: true })
  lastError: string | null;
}
