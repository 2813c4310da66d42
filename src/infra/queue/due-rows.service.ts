import { Inject, Injectable, Logger } from '@nestjs/common';
import { EntityManager, EntityTarget } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { Database, afterCommit } from '../database/database.service';
import {
  DueRow,
  DueRowTable,
  claimDueRow,
  failAbandonedDueRows,
  findDueRowIds,
  recordDueRowFailure,
  recordDueRowSuccess,
} from './due-rows.queries';
import { DueRowJob, JobName, JobPayloads } from './job-catalog';
import { QueueService } from './queue.service';
import { afterFailedAttempt, maxAttemptsOf } from './retry-schedule';
import { Sweeper } from './sweeper.service';

/** Jobs whose payload is a due row's id. */
type DueRowJobName = { [J in JobName]: JobPayloads[J] extends DueRowJob ? J : never }[JobName];

interface DueRowsOptions<Row extends DueRow> {
  /** For logs: "emails", "webhook deliveries". */
  readonly name: string;
  readonly entity: EntityTarget<Row>;
  readonly job: DueRowJobName;
  /** Written on success unless the attempt returns another status. */
  readonly doneStatus: Row['status'];
  /** The wait after each failed attempt; the attempt after the last delay is the last one. */
  readonly retryDelaysMs: readonly number[];
  /** How long one attempt may run before another worker may take the row over. */
  readonly leaseMs: number;
}

export interface DueRowsDefinition<Row extends DueRow> extends DueRowsOptions<Row>, DueRowTable<Row> {}

export function defineDueRows<Row extends DueRow>(options: DueRowsOptions<Row>): DueRowsDefinition<Row> {
  return Object.freeze({ ...options, maxAttempts: maxAttemptsOf(options.retryDelaysMs) });
}

/** Thrown by an attempt when retrying cannot help (a rejected address, a row that makes no sense). */
export class PermanentFailure extends Error {
  override readonly name = 'PermanentFailure';
}

/** An attempt: throws on failure; may return columns (such as another success status) to write. */
type DueRowAttempt<Row extends DueRow> = (row: Row) => Promise<Partial<Row> | void>;

const SWEEP_BATCH = 500;

/**
 * Due rows: the one primitive under every scheduled or retried side effect. The row is the truth
 * (status 'pending' until a success state or 'failed', attempts, next_attempt_at, locked_until,
 * last_error); a job `{ id }` only wakes a worker, and the sweeper wakes due rows no job holds.
 * What a user writes:
 *
 *   // entity: the DueRow columns (status varchar, attempts int, next_attempt_at and locked_until
 *   // timestamptz, last_error text) and an index on (status, next_attempt_at);
 *   // job-catalog.ts: 'webhooks.deliver': { queue: 'webhooks', attempts: 3 }, payload DueRowJob
 *   export const DELIVERIES = defineDueRows({ name: 'webhook deliveries', entity: DeliveryEntity,
 *     job: 'webhooks.deliver', doneStatus: 'delivered', retryDelaysMs: [60_000, 300_000], leaseMs: 30_000 });
 *
 *   onModuleInit() { this.dueRows.registerSweep(DELIVERIES); }
 *   // in the use case's transaction:
 *   const row = { ...fields, ...pendingColumns(dueAt) };
 *   await em.insert(DeliveryEntity, row);
 *   this.dueRows.enqueueAfterCommit(em, DELIVERIES, row);
 *
 *   deliver({ id }: DueRowJob) { return this.dueRows.process(DELIVERIES, id, (row) => this.post(row)); }
 *   // webhook-delivery.processor.ts: @OnJob('webhooks.deliver') handle(job) { return this.sender.deliver(job); }
 *
 * `post` throws to fail the attempt (the schedule decides what follows), throws PermanentFailure
 * when retrying cannot help, or returns extra columns to write with the success.
 */
@Injectable()
export class DueRows {
  private readonly logger = new Logger(DueRows.name);

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly queue: QueueService,
    private readonly sweeper: Sweeper,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The definition with TEST_JOB_LEASE_MS as its lease, when a fault test sets it. */
  private leased<Row extends DueRow>(definition: DueRowsDefinition<Row>): DueRowsDefinition<Row> {
    const leaseMs = this.config.testJobLeaseMs;
    return leaseMs ? { ...definition, leaseMs } : definition;
  }

  registerSweep<Row extends DueRow>(definition: DueRowsDefinition<Row>): void {
    this.sweeper.register({ name: definition.name, run: () => this.sweep(definition) });
  }

  /** Wakes a worker once `em`'s transaction commits: at once, or at the row's due time if later. */
  enqueueAfterCommit<Row extends DueRow>(
    em: EntityManager,
    definition: DueRowsDefinition<Row>,
    row: Pick<DueRow, 'id' | 'nextAttemptAt'>,
  ): void {
    afterCommit(em, () =>
      this.queue.enqueue(
        definition.job,
        { id: row.id },
        {
          dedupeId: row.id,
          delayMs: row.nextAttemptAt.getTime() - this.clock.now().getTime(),
        },
      ),
    );
  }

  /** Claims the row and runs one attempt; does nothing if the row is not claimable now. */
  async process<Row extends DueRow>(definition: DueRowsDefinition<Row>, id: string, attempt: DueRowAttempt<Row>): Promise<void> {
    const row = await this.claim(definition, id);
    if (!row) return; // done, failed, not due yet, or held by another worker
    let extra: Partial<Row> | void;
    try {
      extra = await attempt(row);
    } catch (error) {
      await this.recordFailure(definition, row, error);
      return;
    }
    await recordDueRowSuccess(this.db.manager, definition, row.id, { status: definition.doneStatus, ...extra });
  }

  /** The lease on one due row, with the attempt counted; null for everyone but one claimer. */
  claim<Row extends DueRow>(definition: DueRowsDefinition<Row>, id: string): Promise<Row | null> {
    return claimDueRow(this.db.manager, this.leased(definition), id, this.clock.now());
  }

  /** Ids of due, unleased rows, the longest overdue first. */
  findDue<Row extends DueRow>(definition: DueRowsDefinition<Row>, limit = SWEEP_BATCH): Promise<string[]> {
    return findDueRowIds(this.db.manager, this.leased(definition), this.clock.now(), limit);
  }

  /** The safety net: fails rows whose last attempt vanished, then wakes every due, unleased row. */
  async sweep<Row extends DueRow>(definition: DueRowsDefinition<Row>): Promise<number> {
    const abandoned = await failAbandonedDueRows(this.db.manager, this.leased(definition), this.clock.now());
    if (abandoned > 0) this.logger.warn(`${abandoned} ${definition.name} failed: their last attempt never reported back`);
    const due = await this.findDue(definition);
    for (const id of due) await this.queue.enqueueDue(definition.job, { id }, id);
    return due.length;
  }

  private async recordFailure<Row extends DueRow>(definition: DueRowsDefinition<Row>, row: Row, error: unknown): Promise<void> {
    const reason = error instanceof Error ? error.message : String(error);
    const outcome =
      error instanceof PermanentFailure
        ? ({ status: 'failed' } as const)
        : afterFailedAttempt(row.attempts, definition.retryDelaysMs, this.clock.now());
    const next = outcome.status === 'failed' ? 'gave up' : `retry at ${outcome.nextAttemptAt.toISOString()}`;
    this.logger.warn(`${definition.name} ${row.id} attempt ${row.attempts} failed (${next}): ${reason}`);
    await recordDueRowFailure(this.db.manager, definition, row, outcome, reason);
  }
}
