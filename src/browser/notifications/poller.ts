import { ApiFailure } from '../shared/api';

/** Until the first answer names the plan's `poll_interval_seconds`. */
const FIRST_INTERVAL_MS = 30_000;
/** Network errors and server failures wait twice as long each time, up to this. */
const MAX_BACKOFF_MS = 5 * 60_000;

export interface PollerOptions {
  /** One unread/count call: the count and the answer's `poll_interval_seconds`, or an ApiFailure. */
  fetch(): Promise<{ count: number; intervalSeconds: unknown }>;
  onCount(count: number): void;
  /** 403 USER_HASH_INVALID: the poller has stopped for good. */
  onRefused(failure: ApiFailure): void;
}

export const hashRefused = (error: unknown): error is ApiFailure =>
  error instanceof ApiFailure && error.status === 403 && error.code === 'USER_HASH_INVALID';

/**
 * The badge's polling (spec: Browser events): every `poll_interval_seconds` while the tab is
 * visible, at once when it becomes visible again, never while hidden. After a 429 the next call
 * waits for Retry-After and at least the interval; network errors and 5xx back off exponentially
 * up to 5 minutes; 403 USER_HASH_INVALID stops it for good (a wrong hash stays wrong).
 */
export class Poller {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private intervalMs = FIRST_INTERVAL_MS;
  /** Set by a 429: no call before this time (ms since the epoch). */
  private notBefore = 0;
  private failures = 0;
  private running = false;
  private refused = false;
  private inFlight = false;

  constructor(private readonly options: PollerOptions) {}

  private readonly onVisibility = () => (document.visibilityState === 'visible' ? this.poll() : this.clear());

  start(): void {
    if (this.running) return;
    this.running = true;
    document.addEventListener('visibilitychange', this.onVisibility);
    this.poll();
  }

  stop(): void {
    this.running = false;
    this.clear();
    document.removeEventListener('visibilitychange', this.onVisibility);
  }

  /** Polls now, unless hidden, stopped, already asking, or inside a Retry-After wait (then at its end). */
  poll = (): void => {
    if (!this.running || this.refused || this.inFlight || document.visibilityState !== 'visible') return;
    const wait = this.notBefore - Date.now();
    if (wait > 0) return this.schedule(wait);
    this.clear();
    this.inFlight = true;
    this.options.fetch().then(
      ({ count, intervalSeconds }) => {
        this.inFlight = false;
        this.failures = 0;
        if (typeof intervalSeconds === 'number' && intervalSeconds >= 1) this.intervalMs = intervalSeconds * 1000;
        this.options.onCount(count);
        this.schedule(this.intervalMs);
      },
      (error: unknown) => {
        this.inFlight = false;
        this.failed(error);
      },
    );
  };

  /** Stops for good: the hash was refused (also when another call saw it). */
  refuse(): void {
    this.refused = true;
    this.clear();
  }

  private failed(error: unknown): void {
    if (hashRefused(error)) {
      this.refuse();
      this.options.onRefused(error);
    } else if (error instanceof ApiFailure && error.status === 429) {
      const wait = Math.max(error.retryAfterMs ?? 0, this.intervalMs);
      this.notBefore = Date.now() + wait;
      this.schedule(wait);
    } else {
      this.failures++;
      this.schedule(Math.min(this.intervalMs * 2 ** this.failures, MAX_BACKOFF_MS));
    }
  }

  private schedule(delay: number): void {
    this.clear();
    if (this.running && document.visibilityState === 'visible') this.timer = setTimeout(this.poll, delay);
  }

  private clear(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
