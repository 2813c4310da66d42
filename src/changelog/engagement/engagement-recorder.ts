import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { Database } from '../../infra/database/database';
import { type CountDelta, type ReadMark, addEntryCounts, addReaders } from './engagement.queries';

export type ViewSurface = 'widget' | 'page';

// How long counts wait in memory; also the most a crash can lose.
export const FLUSH_INTERVAL_MS = 1_000;
// A flush is due at once past this many pending rows, whatever the time.
const FLUSH_AT_PENDING = 5_000;
// Past this (the database is down), new counts are dropped rather than growing without bound.
const MAX_PENDING = 100_000;

/**
 * Counts what readers do with entries (views, button clicks, anonymous first reads, and which
 * signed-in person was shown what) without a row write per request (issue: "a busy widget costs
 * O(1) writes per request"): requests add to in-memory maps, and a flush at most every second writes
 * them with two statements, whatever the traffic. Counters are additive, reads idempotent, so any
 * number of processes flush side by side.
 *
 * What this trades: numbers appear in stats up to a second late; a crash (kill -9) loses at most the
 * last second of counts, a graceful stop flushes first. A read mark is also checked here before it
 * reaches the database (`hasPendingRead`), so a person is not re-announced an entry meanwhile. When
 * a flush fails its deltas are merged back and retried on the next tick.
 */
@Injectable()
export class EngagementRecorder implements BeforeApplicationShutdown {
  private readonly logger = new Logger(EngagementRecorder.name);
  private counts = new Map<string, CountDelta>();
  private reads = new Map<string, ReadMark>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private dropped = 0;

  constructor(private readonly db: Database) {}

  addViews(projectId: string, entryIds: readonly string[], surface: ViewSurface, now: Date): void {
    for (const entryId of entryIds) this.delta(projectId, entryId, now)[surface === 'widget' ? 'widgetViews' : 'pageViews'] += 1;
  }

  addClick(projectId: string, entryId: string, now: Date): void {
    this.delta(projectId, entryId, now).ctaClicks += 1;
  }

  addAnonymousReaders(projectId: string, entryIds: readonly string[], now: Date): void {
    for (const entryId of entryIds) this.delta(projectId, entryId, now).anonymousReaders += 1;
  }

  markRead(projectId: string, userId: string, entryIds: readonly string[], now: Date): void {
    for (const entryId of entryIds) {
      const key = readKey(entryId, userId);
      if (!this.reads.has(key) && this.admit()) this.reads.set(key, { projectId, entryId, userId, at: now });
    }
    this.schedule();
  }

  /** Whether this process holds an unflushed read of `entryId` by `userId`. */
  hasPendingRead(entryId: string, userId: string): boolean {
    return this.reads.has(readKey(entryId, userId));
  }

  /** Writes everything pending now; resolves when it is written (or merged back after a failure). */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.writePending());
    return this.flushing;
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.flush();
  }

  private delta(projectId: string, entryId: string, now: Date): CountDelta {
    const day = now.toISOString().slice(0, 10);
    const key = `${entryId}|${day}`;
    let delta = this.counts.get(key);
    if (!delta) {
      delta = { projectId, entryId, day, widgetViews: 0, pageViews: 0, ctaClicks: 0, anonymousReaders: 0 };
      // Over the cap the delta is counted nowhere: a detached object.
      if (this.admit()) this.counts.set(key, delta);
    }
    this.schedule();
    return delta;
  }

  private admit(): boolean {
    if (this.counts.size + this.reads.size < MAX_PENDING) return true;
    this.dropped += 1;
    return false;
  }

  /** `soon` only after a failed write: a database that is down is not hammered. */
  private schedule(soon = false): void {
    if (!soon && this.counts.size + this.reads.size >= FLUSH_AT_PENDING) {
      void this.flush();
      return;
    }
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  private async writePending(): Promise<void> {
    const counts = this.counts;
    const reads = this.reads;
    if (counts.size === 0 && reads.size === 0) return;
    this.counts = new Map();
    this.reads = new Map();
    if (this.dropped > 0) {
      this.logger.warn(`${this.dropped} engagement counts were dropped while the database did not take them`);
      this.dropped = 0;
    }
    try {
      await addEntryCounts(this.db.manager, [...counts.values()]);
    } catch (error) {
      this.mergeBack(counts, null);
      this.logger.warn(`engagement counts not written, retrying: ${(error as Error).message}`);
    }
    try {
      await addReaders(this.db.manager, [...reads.values()]);
    } catch (error) {
      this.mergeBack(null, reads);
      this.logger.warn(`entry reads not written, retrying: ${(error as Error).message}`);
    }
  }

  private mergeBack(counts: Map<string, CountDelta> | null, reads: Map<string, ReadMark> | null): void {
    for (const [key, old] of counts ?? []) {
      const now = this.counts.get(key);
      if (!now) this.counts.set(key, old);
      else {
        now.widgetViews += old.widgetViews;
        now.pageViews += old.pageViews;
        now.ctaClicks += old.ctaClicks;
        now.anonymousReaders += old.anonymousReaders;
      }
    }
    for (const [key, mark] of reads ?? []) if (!this.reads.has(key)) this.reads.set(key, mark);
    this.schedule(true);
  }
}

function readKey(entryId: string, userId: string): string {
  return `${entryId}\u0000${userId}`;
}
