import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { Client } from 'pg';
import type { EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { afterCommit } from './database';
import { isEmbeddedDatabaseUrl } from './embedded-postgres';

/**
 * Cross-process cache invalidation over PostgreSQL LISTEN/NOTIFY. A change is announced inside the
 * transaction that makes it (`ChangeNotifications.announce`), so PostgreSQL delivers it at COMMIT
 * and never for a rollback; every process listens on one dedicated connection (`ChangeListener`,
 * shared by its caches) and drops its copies when the notification arrives. A payload is
 * `<kind>:<id>`: `key:<hash>`, `project:<id>`, `signing-secret:<project id>`,
 * `custom-domain:<hostname>`.
 */
export const CACHE_INVALIDATION_CHANNEL = 'launch_cache_invalidation';

export interface ChangeListenerOptions {
  databaseUrl: string;
  onChange(payload: string): void;
  /**
   * Called whenever notifications may have been missed: when the connection drops and again once
   * LISTEN is in place. Callers clear their caches here.
   */
  onGap(): void;
  /** First reconnect delay; doubles up to `maxRetryDelayMs`. */
  retryDelayMs?: number;
  maxRetryDelayMs?: number;
  connectTimeoutMs?: number;
}

/** One dedicated connection that LISTENs, and reconnects with backoff when it drops. */
export class ChangeListener {
  private readonly logger = new Logger(ChangeListener.name);
  private client: Client | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private listening = false;
  private delayMs: number;

  constructor(private readonly options: ChangeListenerOptions) {
    this.delayMs = options.retryDelayMs ?? 250;
  }

  /** True while LISTEN is in place, so no notification can be missed. */
  get isListening(): boolean {
    return this.listening;
  }

  start(): void {
    if (!this.client && !this.timer && !this.stopped) void this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const client = this.client;
    this.client = null;
    this.listening = false;
    if (client) await client.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new Client({
      connectionString: this.options.databaseUrl,
      application_name: 'launch-change-listener',
      connectionTimeoutMillis: this.options.connectTimeoutMs ?? 3_000,
      keepAlive: true,
    });
    this.client = client;
    client.on('notification', (message) => {
      if (message.channel === CACHE_INVALIDATION_CHANNEL) this.options.onChange(message.payload ?? '');
    });
    client.on('error', (error) => this.dropped(client, error));
    client.on('end', () => this.dropped(client, null));
    try {
      await client.connect();
      await client.query(`LISTEN ${CACHE_INVALIDATION_CHANNEL}`);
      if (this.client !== client) return;
      this.listening = true;
      this.delayMs = this.options.retryDelayMs ?? 250;
      // Changes made before LISTEN took effect were not delivered to us.
      this.options.onGap();
    } catch (error) {
      this.dropped(client, error as Error);
    }
  }

  private dropped(client: Client, error: Error | null): void {
    if (this.client !== client) return;
    this.client = null;
    this.listening = false;
    this.options.onGap();
    void client.end().catch(() => undefined);
    if (this.stopped) return;
    this.logger.warn(`change listener connection lost${error ? `: ${error.message}` : ''}; reconnecting in ${this.delayMs} ms`);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.connect();
    }, this.delayMs);
    this.timer.unref();
    this.delayMs = Math.min(this.delayMs * 2, this.options.maxRetryDelayMs ?? 5_000);
  }
}

/** What a cache does with the changes of the kinds it holds. */
export interface ChangeSubscriber {
  /** Per kind (`key`, `project`, …): drop the copies of this id. */
  onChange: Readonly<Record<string, (id: string) => void>>;
  /** Changes may have been missed (connection lost, or LISTEN just in place): drop everything. */
  onGap(): void;
}

/**
 * The one way to announce a change to cached rows, and the process's one change listener, shared
 * by its caches. `announce` tells every other process (NOTIFY, at COMMIT) and this process's
 * caches (after commit), so a cache never hears of a change that was rolled back. The listener
 * connects on the first `start()` (a cache's first database read), so processes that never cache
 * open no connection. On the embedded database no listener runs: one process holds the database
 * (its data-dir lock), so the in-process half is complete.
 */
@Injectable()
export class ChangeNotifications implements OnModuleDestroy {
  private readonly listener: ChangeListener | null;
  private readonly subscribers: ChangeSubscriber[] = [];

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const url = config.databaseUrl;
    this.listener =
      url && !isEmbeddedDatabaseUrl(url)
        ? new ChangeListener({ databaseUrl: url, onChange: (payload) => this.received(payload), onGap: () => this.gap() })
        : null;
  }

  /** Announces, inside `em`'s transaction, that the `kind` row `id` changed. */
  async announce(em: EntityManager, kind: string, id: string): Promise<void> {
    await em.query('SELECT pg_notify($1, $2)', [CACHE_INVALIDATION_CHANNEL, `${kind}:${id}`]);
    afterCommit(em, () => this.dispatch(kind, id));
  }

  subscribe(subscriber: ChangeSubscriber): void {
    this.subscribers.push(subscriber);
  }

  start(): void {
    this.listener?.start();
  }

  /** True once cross-process invalidation is in place (always true on the embedded database). */
  get isListening(): boolean {
    return this.listener ? this.listener.isListening : true;
  }

  async onModuleDestroy(): Promise<void> {
    await this.listener?.stop();
  }

  private received(payload: string): void {
    const colon = payload.indexOf(':');
    if (colon > 0) this.dispatch(payload.slice(0, colon), payload.slice(colon + 1));
  }

  private dispatch(kind: string, id: string): void {
    // A kind no cache here holds (one a newer release announces, say) concerns nothing here.
    for (const subscriber of this.subscribers) {
      if (Object.hasOwn(subscriber.onChange, kind)) subscriber.onChange[kind](id);
    }
  }

  private gap(): void {
    for (const subscriber of this.subscribers) subscriber.onGap();
  }
}
