import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { newId } from '../common/ids/ids';
import { Database } from '../infra/database/database.service';
import { DueRows, PermanentFailure, defineDueRows } from '../infra/queue/due-rows.service';
import { pendingColumns } from '../infra/queue/due-rows.queries';
import type { DueRowJob } from '../infra/queue/job-catalog';
import { planAllows } from '../projects/plans';
import { ProjectsService } from '../projects/projects.service';
import type { SyncState, SyncStatusDto } from './dto/processor-connection.dto';
import { RevenueConnectionEntity } from './entities/revenue-connection.entity';
import { RevenueSyncEntity, type RevenueSyncKind } from './entities/revenue-sync.entity';
import { ProcessorRateLimited } from './processor.client';
import { RevenueSyncRunner } from './revenue-sync-runner.service';
import { findLastEndedSync, findPendingSync } from './revenue.queries';

/** Incremental runs read the events list this often (the processor keeps events 30 days). */
export const INCREMENTAL_INTERVAL_MS = 5 * 60_000;
/** A full pass (reconcile) once a day catches anything the events missed. */
const RECONCILE_INTERVAL_MS = 24 * 60 * 60_000;
/** After a run gave up, the next one is queued this much later. */
const AFTER_FAILURE_MS = 60 * 60_000;

const REVENUE_SYNCS = defineDueRows<RevenueSyncEntity>({
  name: 'revenue syncs',
  entity: RevenueSyncEntity,
  job: 'revenue.sync',
  doneStatus: 'done',
  // Network trouble and 5xx: a minute, then longer; each retry resumes after the last stored page.
  retryDelaysMs: [60_000, 300_000, 1_800_000, 7_200_000],
  // A backfill of a large account takes many pages; each page renews nothing, so the lease is long.
  leaseMs: 15 * 60_000,
});

/** The state a sync row shows (see SyncStatusDto.state). */
export function syncStatusOf(row: RevenueSyncEntity, now: Date, lastSyncedAt: Date | null): SyncState {
  if (row.status === 'failed') return 'failed';
  if (row.status === 'done') return 'synced';
  if (row.lockedUntil && row.lockedUntil.getTime() > now.getTime()) return 'running';
  if (row.lastError) return 'retrying';
  return lastSyncedAt && row.kind === 'incremental' && row.nextAttemptAt.getTime() > now.getTime() ? 'synced' : 'queued';
}

/**
 * Sync runs on the due-rows primitive: one pending row per connection at a time; when a run ends
 * (done or failed), the next is queued: incremental every 5 minutes, a full reconcile once a day.
 * A 429 puts the run back to sleep until the processor's Retry-After without using an attempt.
 */
@Injectable()
export class RevenueSyncs implements OnModuleInit {
  private readonly logger = new Logger(RevenueSyncs.name);

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly dueRows: DueRows,
    private readonly runner: RevenueSyncRunner,
    private readonly projects: ProjectsService,
  ) {}

  onModuleInit(): void {
    this.dueRows.registerSweep(REVENUE_SYNCS);
  }

  async schedule(em: EntityManager, connection: RevenueConnectionEntity, kind: RevenueSyncKind, dueAt: Date): Promise<RevenueSyncEntity> {
    const row = Object.assign(new RevenueSyncEntity(), {
      id: newId('rvs'),
      projectId: connection.projectId,
      connectionId: connection.id,
      kind,
      phase: kind === 'incremental' ? 'events' : 'customers',
      startingAfter: null,
      progress: { customers: 0, subscriptions: 0, invoices: 0, events: 0 },
      ...pendingColumns(dueAt),
      status: 'pending' as const,
      createdAt: this.clock.now(),
      startedAt: null,
      finishedAt: null,
    });
    await em.insert(RevenueSyncEntity, row);
    this.dueRows.enqueueAfterCommit(em, REVENUE_SYNCS, row);
    return row;
  }

  /** Brings the queued run forward to now (a running one is left alone), or queues one. The connection row is locked by the caller. */
  async runSoon(em: EntityManager, connection: RevenueConnectionEntity): Promise<RevenueSyncEntity> {
    const now = this.clock.now();
    const pending = await findPendingSync(em, connection.id);
    if (!pending) return this.schedule(em, connection, connection.lastFullSyncAt ? 'incremental' : 'backfill', now);
    const running = pending.lockedUntil !== null && pending.lockedUntil.getTime() > now.getTime();
    if (!running && pending.nextAttemptAt.getTime() > now.getTime()) {
      await em.update(RevenueSyncEntity, { id: pending.id, status: 'pending' }, { nextAttemptAt: now });
      pending.nextAttemptAt = now;
      this.dueRows.enqueueAfterCommit(em, REVENUE_SYNCS, pending);
    }
    return pending;
  }

  async status(em: EntityManager, connection: RevenueConnectionEntity): Promise<SyncStatusDto> {
    const now = this.clock.now();
    const pending = await findPendingSync(em, connection.id);
    const ended = await findLastEndedSync(em, connection.id);
    // A run in progress or retrying speaks for itself; otherwise the last run that ended does.
    const current = pending && (pending.startedAt || pending.lastError || !ended) ? pending : (ended ?? pending);
    const shown = current as RevenueSyncEntity;
    return {
      state: syncStatusOf(shown, now, connection.lastSyncedAt),
      kind: shown.kind,
      progress: shown.progress,
      last_error: shown.lastError,
      last_synced_at: connection.lastSyncedAt?.toISOString() ?? null,
      next_sync_at: pending?.nextAttemptAt.toISOString() ?? null,
    };
  }

  async runSync({ id }: DueRowJob): Promise<void> {
    await this.dueRows.process(REVENUE_SYNCS, id, (row) => this.attempt(row));
    await this.queueNext(id);
  }

  private async attempt(row: RevenueSyncEntity): Promise<Partial<RevenueSyncEntity> | void> {
    const connection = await this.db.manager.findOne(RevenueConnectionEntity, { where: { id: row.connectionId } });
    if (!connection) throw new PermanentFailure('the connection was removed');
    // A project whose plan lost revenue figures (a downgrade) is not read from the processor: the
    // run ends at once, and the next one, at the usual interval, reads again once the plan allows.
    const project = await this.projects.findById(connection.projectId);
    if (!project || !planAllows(project.plan, 'revenue')) return { finishedAt: this.clock.now() };
    try {
      await this.runner.run(row, connection);
    } catch (error) {
      if (!(error instanceof ProcessorRateLimited)) throw error;
      this.logger.warn(`revenue sync ${row.id} rate-limited; resuming in ${error.retryAfterMs} ms`);
      // Not a failure: sleep until Retry-After, and give the attempt back.
      return { status: 'pending', attempts: row.attempts - 1, nextAttemptAt: new Date(this.clock.now().getTime() + error.retryAfterMs) };
    }
    return { finishedAt: this.clock.now() };
  }

  /** Once a run has ended, queues the next (unless one is queued already or the connection is gone). */
  private async queueNext(id: string): Promise<void> {
    await this.db.transaction(async (em) => {
      const ended = await em.findOne(RevenueSyncEntity, { where: { id } });
      if (!ended || ended.status === 'pending') return;
      const connection = await em.findOne(RevenueConnectionEntity, {
        where: { id: ended.connectionId },
        lock: { mode: 'pessimistic_write' },
      });
      if (!connection || (await findPendingSync(em, connection.id))) return;
      const now = this.clock.now().getTime();
      if (ended.status === 'failed') {
        await this.schedule(em, connection, connection.lastFullSyncAt ? 'incremental' : 'backfill', new Date(now + AFTER_FAILURE_MS));
        return;
      }
      const fullDue = !connection.lastFullSyncAt || now - connection.lastFullSyncAt.getTime() >= RECONCILE_INTERVAL_MS;
      await this.schedule(em, connection, fullDue ? 'reconcile' : 'incremental', new Date(now + INCREMENTAL_INTERVAL_MS));
    });
  }
}
