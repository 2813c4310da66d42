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
 * `custom-domain:<hostname>`, `changelog-public:<project id>`,
 * `bell-person:<project id>:<user id>` and `bell-project:<project id>` (BELL_CHANGES).
 */
export const CACHE_INVALIDATION_CHANNEL = 'launch_cache_invalidation';
/**
 * How long a change's answer waits for this process's own listener to hear the change. PostgreSQL
 * signals every listener at COMMIT, but delivers to each a moment later: answering before then
 * lets a client's next request, sent to another process, meet that process's old copy.
 */
const HEARD_WITHIN_MS = 100;
const FORGET_UNHEARD_MS = 10_000;
const LISTENING_WITHIN_MS = 1_000;

/**
 * The kinds of the bell's cached state (notifications/bell/bell-state.cache.ts): one person's bell,
 * or every bell of a project. Named here because modules that do not hold the cache write what it
 * reflects (a contact's erasure deletes the person's bell rows).
 */
export const BELL_CHANGES = { person: 'bell-person', project: 'bell-project' } as const;

export function bellPersonId(projectId: string, userId: string): string {
  return `${projectId}:${userId}`;
}

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
  /** Changes this process announced, by `<backend pid>:<payload>`, until the listener hears them. */
  private readonly awaited = new Map<string, () => void>();
  private readonly awaitedArrivals = new Map<string, Promise<void>>();

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

  /** Starts listening if need be; resolves once LISTEN is in place, or after `withinMs`. */
  async ready(withinMs: number): Promise<void> {
    this.start();
    for (const deadline = Date.now() + withinMs; !this.listening && !this.stopped && Date.now() < deadline;) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /**
   * Resolves when this listener hears `payload` from the backend `pid`. Registered before the
   * COMMIT that sends it, so it cannot be missed; forgotten after a while if it never comes (the
   * transaction rolled back).
   */
  heard(pid: number, payload: string): Promise<void> {
    const key = `${pid}:${payload}`;
    // PostgreSQL sends a payload once per transaction however often it was announced in it:
    // every wait for it shares the one arrival.
    const pending = this.awaitedArrivals.get(key);
    if (pending) return pending;
    const arrival = new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        if (this.awaited.get(key) === done) {
          this.awaited.delete(key);
          this.awaitedArrivals.delete(key);
        }
        resolve();
      };
      const timer = setTimeout(done, FORGET_UNHEARD_MS);
      timer.unref();
      this.awaited.set(key, done);
    });
    this.awaitedArrivals.set(key, arrival);
    return arrival;
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
      if (message.channel !== CACHE_INVALIDATION_CHANNEL) return;
      const own = this.awaited.get(`${message.processId}:${message.payload ?? ''}`);
      // A change this process announced reaches its own caches after its commit (announce), once.
      if (own) own();
      else this.options.onChange(message.payload ?? '');
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

  /**
   * Announces, inside `em`'s transaction, that the `kind` row `id` changed. After the COMMIT the
   * caller's answer waits (at most HEARD_WITHIN_MS) until this process's own listener hears the
   * change. PostgreSQL tells every listener at the same moment, so by then the other processes
   * have nearly always dropped their copies too; it narrows, and does not close, the window in
   * which a client's next request to another process can still meet the old copy (a process that
   * is slow to read its listener's socket).
   */
  async announce(em: EntityManager, kind: string, id: string): Promise<void> {
    await this.announceMany(em, kind, [id]);
  }

  /** `announce` for several rows of one kind, in one statement. */
  async announceMany(em: EntityManager, kind: string, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    const payloads = ids.map((id) => `${kind}:${id}`);
    const listener = this.listener;
    // Just started or reconnecting: a change announced before LISTEN is in place could not be waited for.
    if (listener && !listener.isListening) await listener.ready(LISTENING_WITHIN_MS);
    const rows = (await em.query('SELECT pg_notify($1, payload), pg_backend_pid() AS pid FROM unnest($2::text[]) AS t(payload)', [
      CACHE_INVALIDATION_CHANNEL,
      payloads,
    ])) as { pid: number }[];
    // A transaction's notifications arrive in the order they were sent: the last one heard, all are.
    const heard = listener?.isListening ? listener.heard(rows[0].pid, payloads[payloads.length - 1]) : null;
    afterCommit(em, async () => {
      for (const id of ids) this.dispatch(kind, id);
      if (!heard) return;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([heard, new Promise((resolve) => (timer = setTimeout(resolve, HEARD_WITHIN_MS)))]);
      clearTimeout(timer);
    });
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
