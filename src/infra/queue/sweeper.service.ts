import { BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';

interface Sweep {
  /** For logs: "mail", "webhook deliveries". */
  readonly name: string;
  /** Enqueues the due rows that no job holds; returns how many it woke. */
  run(): Promise<number>;
}

const SWEEP_INTERVAL_MS = 5_000;

/**
 * The safety net of the outbox: every few seconds, each registered sweep re-enqueues rows that are
 * due but held by no job (a crash, even kill -9, or a Redis flush loses nothing). Runs only where
 * workers run; several sweepers at once are harmless because jobs are deduplicated by row id.
 */
@Injectable()
export class Sweeper implements BeforeApplicationShutdown {
  private readonly logger = new Logger(Sweeper.name);
  private readonly sweeps: Sweep[] = [];
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  register(sweep: Sweep): void {
    this.sweeps.push(sweep);
  }

  @Interval('outbox-sweeper', SWEEP_INTERVAL_MS)
  tick(): void {
    if (this.config.workers && !this.stopped) void this.runOnce();
  }

  /** One pass over every sweep; overlapping calls share the pass in progress. */
  runOnce(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.running ??= this.sweepAll().finally(() => (this.running = null));
    return this.running;
  }

  /** Before the queues close (their hook is onApplicationShutdown): stop and let the pass finish. */
  beforeApplicationShutdown(): Promise<void> {
    return this.stop();
  }

  /** No new pass starts; resolves when the pass in progress has finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  private async sweepAll(): Promise<void> {
    for (const sweep of this.sweeps) {
      if (this.stopped) return;
      try {
        const woken = await sweep.run();
        if (woken > 0) this.logger.log(`Sweeper re-enqueued ${woken} ${sweep.name}`);
      } catch (error) {
        this.logger.warn(`Sweep ${sweep.name} failed: ${(error as Error).message}`);
      }
    }
  }
}
