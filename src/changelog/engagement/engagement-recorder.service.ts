import { Injectable, Logger } from '@nestjs/common';
import { Database } from '../../infra/database/database.service';
import { type CountDelta, type ReadMark, addReaders, appendCountDeltas } from './engagement.queries';
import { type EngagementBatch, EngagementRedisBuffer } from './engagement-redis-buffer.service';

type ViewSurface = 'widget' | 'page';

/** What one request counts, by entry id. */
interface EngagementMarks {
  views?: { surface: ViewSurface; entryIds: readonly string[] };
  ctaClicks?: readonly string[];
  anonymousReaders?: readonly string[];
  /** A signed-in person shown these entries. */
  reads?: { userId: string; entryIds: readonly string[] };
}

// How long this process answers "already read" for a read it buffered, while the flusher (every
// second, see EngagementFlusher) writes it to changelog_readers.
const PENDING_READ_MS = 30_000;
// Past this many remembered reads, new ones are not remembered (they are still recorded).
const MAX_PENDING_READS = 100_000;

/**
 * Counts what readers do with entries (views, button clicks, anonymous first reads, and which
 * signed-in person was shown what) without touching the hot daily counter rows per request (issue:
 * "a busy widget costs O(1) writes per request"). Each request's counts go, before it answers, to a
 * buffer that outlives the process, so a crash (even kill -9) loses nothing:
 * - with REDIS_URL, one MULTI to Redis (EngagementRedisBuffer) and no PostgreSQL round trip;
 * - without Redis, or while Redis does not answer, one insert into changelog_count_deltas (rows
 *   appended, nothing contended) and first reads straight into changelog_readers (one row per
 *   person and entry, idempotent).
 * EngagementFlusher adds the buffer to the daily counters every second, once per batch.
 *
 * What this trades: numbers appear in stats up to a second or two late. A Redis call that timed out
 * after Redis applied it is written again to PostgreSQL, so it may count twice; a request whose
 * counts reach neither store answers as usual and counts nothing (counting never fails a widget).
 * A buffered read is also remembered here (`hasPendingRead`) for PENDING_READ_MS, so this process
 * does not re-announce an entry before the flush writes the read.
 */
@Injectable()
export class EngagementRecorder {
  private readonly logger = new Logger(EngagementRecorder.name);
  private readonly pendingReads = new Map<string, number>();

  constructor(
    private readonly db: Database,
    private readonly redis: EngagementRedisBuffer,
  ) {}

  async record(projectId: string, now: Date, marks: EngagementMarks): Promise<void> {
    const batch = batchOf(projectId, now, marks);
    if (batch.deltas.length === 0 && batch.reads.length === 0) return;
    if (this.redis.ready) {
      try {
        await this.redis.add(batch);
        this.rememberReads(batch.reads);
        return;
      } catch (error) {
        this.redis.failed(error);
      }
    }
    try {
      await appendCountDeltas(this.db.manager, batch.deltas);
      await addReaders(this.db.manager, batch.reads);
    } catch (error) {
      this.logger.warn(`engagement not recorded: ${(error as Error).message}`);
    }
  }

  /** Whether this process buffered, moments ago, a read of `entryId` by `userId` that may not be in the database yet. */
  hasPendingRead(entryId: string, userId: string): boolean {
    const until = this.pendingReads.get(readKey(entryId, userId));
    return until !== undefined && until > Date.now();
  }

  private rememberReads(reads: readonly ReadMark[]): void {
    if (reads.length === 0) return;
    // Wall-clock expiry on purpose: it tracks the real flush, not the service's (adjustable) Clock.
    const wallNow = Date.now();
    if (this.pendingReads.size + reads.length > MAX_PENDING_READS) {
      for (const [key, until] of this.pendingReads) if (until <= wallNow) this.pendingReads.delete(key);
    }
    for (const read of reads) {
      if (this.pendingReads.size >= MAX_PENDING_READS) return;
      this.pendingReads.set(readKey(read.entryId, read.userId), wallNow + PENDING_READ_MS);
    }
  }
}

function batchOf(projectId: string, now: Date, marks: EngagementMarks): EngagementBatch {
  const day = now.toISOString().slice(0, 10);
  const deltas = new Map<string, CountDelta>();
  const delta = (entryId: string) => {
    let found = deltas.get(entryId);
    if (!found) {
      found = { projectId, entryId, day, widgetViews: 0, pageViews: 0, ctaClicks: 0, anonymousReaders: 0 };
      deltas.set(entryId, found);
    }
    return found;
  };
  const viewed = marks.views?.surface === 'widget' ? 'widgetViews' : 'pageViews';
  for (const entryId of marks.views?.entryIds ?? []) delta(entryId)[viewed] += 1;
  for (const entryId of marks.ctaClicks ?? []) delta(entryId).ctaClicks += 1;
  for (const entryId of marks.anonymousReaders ?? []) delta(entryId).anonymousReaders += 1;
  const reader = marks.reads;
  const reads = reader ? [...new Set(reader.entryIds)].map((entryId) => ({ projectId, entryId, userId: reader.userId, at: now })) : [];
  return { deltas: [...deltas.values()], reads };
}

function readKey(entryId: string, userId: string): string {
  return `${entryId}\u0000${userId}`;
}
