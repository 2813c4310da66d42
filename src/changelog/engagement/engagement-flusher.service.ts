import { BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { Clock } from '../../common/clock/clock';
import { newId } from '../../common/ids/ids';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { Database } from '../../infra/database/database.service';
import { addEntryCounts, addReaders, claimEngagementBatch, forgetEngagementBatches, moveCountDeltas } from './engagement.queries';
import { EngagementRedisBuffer } from './engagement-redis-buffer.service';

// How often workers add the buffer to the daily counters: how late numbers may appear in stats.
const ENGAGEMENT_FLUSH_INTERVAL_MS = 1_000;
// Buffer rows per statement when there is no Redis.
const MOVE_BATCH = 5_000;
// A batch id is remembered this long after its batch was added (see ChangelogEngagementBatchEntity).
const BATCH_MEMORY_MS = 24 * 60 * 60 * 1000;

/**
 * Adds buffered engagement (EngagementRecorder) to the daily counters and the readers table, every
 * second in worker processes, exactly once per count even when a flusher dies mid-way:
 * - Redis: the pending hashes are renamed into a batch first (requests go on into fresh hashes);
 *   each batch is added in one transaction that also records its id, then deleted. A batch whose id
 *   is already recorded (its flusher died after COMMIT) is only deleted.
 * - PostgreSQL: one statement deletes buffer rows and adds exactly those (engagement.queries.ts).
 * Both are drained on every pass, so counts written to PostgreSQL while Redis was down are added
 * too. Several workers flushing at once share the work: batches are claimed in PostgreSQL, buffer
 * rows taken with SKIP LOCKED.
 */
@Injectable()
export class EngagementFlusher implements BeforeApplicationShutdown {
  private readonly logger = new Logger(EngagementFlusher.name);
  private flushing: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly redis: EngagementRedisBuffer,
  ) {}

  @Interval('engagement-flush', ENGAGEMENT_FLUSH_INTERVAL_MS)
  tick(): void {
    if (this.config.workers && !this.stopped) void this.flush();
  }

  /** Adds everything buffered so far; passes in this process run one after another. Never throws. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.flushOnce());
    return this.flushing;
  }

  /** No new pass starts; resolves when the pass in progress has finished (before the database closes). */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await this.flushing;
  }

  private async flushOnce(): Promise<void> {
    try {
      if (this.redis.ready) await this.flushRedis();
    } catch (error) {
      this.redis.failed(error);
    }
    try {
      while ((await moveCountDeltas(this.db.manager, MOVE_BATCH)) === MOVE_BATCH);
    } catch (error) {
      this.logger.warn(`engagement in the database not flushed, retrying: ${(error as Error).message}`);
    }
  }

  private async flushRedis(): Promise<void> {
    await this.redis.take(newId('ceb'));
    for (const id of await this.redis.batchIds()) {
      const batch = await this.redis.read(id);
      await this.db.transaction(async (em) => {
        const now = this.clock.now();
        if (!(await claimEngagementBatch(em, id, now))) return;
        await addEntryCounts(em, batch.deltas);
        await addReaders(em, batch.reads);
        await forgetEngagementBatches(em, new Date(now.getTime() - BATCH_MEMORY_MS));
      });
      await this.redis.drop(id);
    }
  }
}
