import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../common/clock/clock';
import { Database } from '../infra/database/database.service';
import { recordKeyUses } from './api-keys.queries';
import { BoundedMap } from '../common/cache/bounded-map';

/** A key's last-used time moves at most this often (issue 14: at most once a minute per key). */
const KEY_USAGE_INTERVAL_MS = 60_000;
/** Uses are written in one batch this long after the first one waiting, off every request's path. */
const FLUSH_DELAY_MS = 1_000;

/**
 * Records `last_used_at` of API keys without costing a request anything: `touch` is a map lookup,
 * and at most once a minute per key it queues the key; one UPDATE writes every queued key a
 * second later, after the responses. The UPDATE itself keeps the once-a-minute rule across
 * processes (it skips keys written less than a minute ago). A lost batch (crash) loses at most a
 * second of last-used times; nothing depends on them beyond display.
 */
@Injectable()
export class KeyUsageRecorder {
  private readonly logger = new Logger(KeyUsageRecorder.name);
  /** When this process last queued each key (ms). */
  // Bounded like the key cache: a process serving millions of keys forgets the oldest, and writes again.
  private readonly lastQueued = new BoundedMap<string, number>(100_000);
  private pending = new Map<string, Date>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  touch(keyId: string): void {
    const now = this.clock.now();
    const last = this.lastQueued.get(keyId);
    if (last !== undefined && now.getTime() - last < KEY_USAGE_INTERVAL_MS) return;
    this.lastQueued.set(keyId, now.getTime());
    this.pending.set(keyId, now);
    this.timer ??= setTimeout(() => void this.flush(), FLUSH_DELAY_MS).unref();
  }

  /** Writes the queued uses now (tests, and shutdown). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending;
    this.pending = new Map();
    this.flushing = this.flushing.then(() => this.write(batch));
    return this.flushing;
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.flush();
  }

  private async write(batch: Map<string, Date>): Promise<void> {
    if (batch.size === 0) return;
    try {
      await recordKeyUses(this.db.manager, batch, KEY_USAGE_INTERVAL_MS);
    } catch (error) {
      this.logger.warn(`could not record key usage: ${(error as Error).message}`);
    }
  }
}
