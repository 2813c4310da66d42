import { Logger } from '@nestjs/common';
import Redis from 'ioredis';
import type { AppConfig } from '../config/app-config';

// While Redis does not answer, a background PING checks this often whether it is back.
const REDIS_PROBE_INTERVAL_MS = 1_000;

/** What a request-path user of Redis says when it falls back, and when it comes back. */
interface FallbackWording {
  /** "rate limits count in memory until it does" */
  degraded: string;
  /** "rate limits are shared again" */
  restored: string;
}

/**
 * A Redis connection that a request may wait on, but never for long: every command has the
 * REDIS_COMMAND_TIMEOUT_MS deadline and one retry at most. After a failed call its owner marks it
 * `failed`, and requests stop waiting on Redis (the owner uses its fallback) until a background
 * PING sees it answer again. The rate limiter and the engagement buffer each hold one.
 */
export class RequestPathRedis {
  readonly client: Redis | null;
  private readonly logger: Logger;
  private probe: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    config: AppConfig,
    owner: string,
    private readonly wording: FallbackWording,
  ) {
    this.logger = new Logger(owner);
    this.client = config.redisUrl
      ? new Redis(config.redisUrl, {
          commandTimeout: config.deadlines.redisCommandMs,
          connectTimeout: Math.max(1_000, config.deadlines.redisCommandMs),
          maxRetriesPerRequest: 1,
        })
      : null;
    // Without a listener, ioredis reports every failed reconnect as an unhandled 'error'.
    this.client?.on('error', () => undefined);
  }

  /** Whether a request should use Redis now: configured, connected, and not waiting for a PING. */
  get usable(): boolean {
    return this.client?.status === 'ready' && this.probe === null && !this.closed;
  }

  /** Whether a call failed and Redis has not answered a PING since. */
  get degraded(): boolean {
    return this.probe !== null;
  }

  /** A call failed or outlived its deadline: requests use the fallback until Redis answers a PING. */
  failed(error: unknown): void {
    const client = this.client;
    if (!client || this.probe || this.closed) return;
    this.logger.warn(`Redis did not answer (${(error as Error).message}); ${this.wording.degraded}`);
    this.probe = setInterval(() => {
      client.ping().then(
        () => {
          if (!this.probe || this.closed) return;
          clearInterval(this.probe);
          this.probe = null;
          this.logger.log(`Redis answers again; ${this.wording.restored}`);
        },
        () => undefined,
      );
    }, REDIS_PROBE_INTERVAL_MS);
    this.probe.unref();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.probe) clearInterval(this.probe);
    this.probe = null;
    if (this.client) await this.client.quit().catch(() => this.client?.disconnect());
  }
}
