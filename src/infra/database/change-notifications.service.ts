import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import type { EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { afterCommit } from './database.service';
import { isEmbeddedDatabaseUrl } from './embedded-postgres';

/**
 * Cross-process cache invalidation over PostgreSQL LISTEN/NOTIFY. A change is announced inside the
 * transaction that makes it (`ChangeNotifications.announce`), so PostgreSQL delivers it at COMMIT
 * and never for a rollback; every process listens on one dedicated connection (`ChangeListener`,
 * shared by its caches) and drops its copies when the notification arrives; the change's answer
 * waits until every listening process has (ChangeListener). A payload is
 * `<kind>:<id>`: `key:<hash>`, `project:<id>`, `signing-secret:<project id>`,
 * `custom-domain:<hostname>`, `changelog-public:<project id>`,
 * `bell-person:<project id>:<user id>` and `bell-project:<project id>` (BELL_CHANGES).
 */
export const CACHE_INVALIDATION_CHANNEL = 'launch_cache_invalidation';
/**
 * A listener's connection is named this once LISTEN is in place, so a process announcing a change
 * finds every listener that must apply it in `pg_stat_activity`. Listeners of earlier releases
 * (named `launch-change-listener`, without acknowledgements) are not waited for.
 */
export const LISTENER_APPLICATION_NAME = 'launch-change-listener/applies';
/**
 * How long a change's answer waits for every listening process to apply it. Reached only when a
 * process is stalled (its event loop blocked, its host paused): a live one answers in about a
 * millisecond. The change still reaches that process later; only "at once" is lost.
 */
const APPLIED_WITHIN_MS = 1_000;
const LISTENING_WITHIN_MS = 1_000;
/** Sync tokens whose place in the stream is remembered, so a late acknowledgement can be placed. */
const REMEMBERED_SYNCS = 4_096;
const SYNC = 'sync:';
const APPLIED = 'applied:';

/**
 * The kinds of the bell's cached state (notifications/bell/bell-state.cache.ts): one person's bell,
 * or every bell of a project. Named here because modules that do not hold the cache write what it
 * reflects (a contact's erasure deletes the person's bell rows).
 */
export const BELL_CHANGES = { person: 'bell-person', project: 'bell-project' } as const;

export function bellPersonId(projectId: string, userId: string): string {
  return `${projectId}:${userId}`;
}

interface ChangeListenerOptions {
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

/** A change's wait for the listening processes to apply it. */
interface PendingSync {
  /** Where the sync stands in this listener's stream, once heard. */
  position?: number;
  /** Backend pids of the listeners that have not applied it yet. */
  waitingFor: Set<number>;
  /** The announcing transaction's backend and its payloads: this process's caches heard them at commit. */
  fromPid: number;
  payloads: ReadonlySet<string>;
  done(): void;
}

/**
 * One dedicated connection that LISTENs, and reconnects with backoff when it drops.
 *
 * It also tells the announcing process when its change has been applied here. An announcing
 * process ends its change's notifications with `sync:<token>` and reads which listeners exist
 * (by LISTENER_APPLICATION_NAME). PostgreSQL delivers one channel's notifications to every
 * listener in the same (commit) order, so a listener that has dispatched a sync has dispatched the
 * change before it; it then sends `applied:<token>` for the last sync it dispatched, which stands
 * for every sync before it as well (one acknowledgement per batch read from the socket, however
 * many changes the batch held). The announcing process, hearing the same stream, places each
 * acknowledged token against its own sync and stops waiting once every listener has passed it.
 */
class ChangeListener {
  private readonly logger = new Logger(ChangeListener.name);
  private client: Client | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private listening = false;
  private delayMs: number;
  /** This listener's backend pid while listening: its own syncs need no acknowledgement. */
  private ownPid = 0;
  private readonly tokenPrefix = randomBytes(6).toString('base64url');
  private tokenCount = 0;
  /** The changes this process announced, by sync token, until every listener has applied them. */
  private readonly pending = new Map<string, PendingSync>();
  /** Place in this listener's stream of each sync heard lately. */
  private readonly positions = new Map<string, number>();
  private heardSyncs = 0;
  /** The last sync of another process dispatched and not yet acknowledged. */
  private unacknowledged: string | null = null;

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

  /** A token for the sync that ends one announcement; unique across processes. */
  nextSyncToken(): string {
    this.tokenCount += 1;
    return `${this.tokenPrefix}.${this.tokenCount}`;
  }

  /**
   * Resolves once every listener in `listeners` (backend pids, read in the announcing
   * transaction) has applied the sync `token`, or after APPLIED_WITHIN_MS, or when this listener
   * loses its connection (it can no longer tell). Registered before the COMMIT that sends the sync.
   * A rolled-back change never calls it.
   */
  applied(token: string, listeners: readonly number[], fromPid: number, payloads: readonly string[]): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        const stalled = this.pending.get(token)?.waitingFor.size ?? 0;
        if (stalled > 0)
          this.logger.warn(`a change was not applied by ${stalled} listening process(es) within ${APPLIED_WITHIN_MS} ms; answering anyway`);
        done();
      }, APPLIED_WITHIN_MS);
      timer.unref();
      const done = () => {
        clearTimeout(timer);
        this.pending.delete(token);
        resolve();
      };
      this.pending.set(token, { waitingFor: new Set(listeners), fromPid, payloads: new Set(payloads), done });
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const client = this.client;
    this.client = null;
    this.listening = false;
    this.releaseWaits();
    if (client) await client.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new Client({
      connectionString: this.options.databaseUrl,
      // Renamed once LISTEN is in place: before then it must not be waited for.
      application_name: 'launch-change-listener-connecting',
      connectionTimeoutMillis: this.options.connectTimeoutMs ?? 3_000,
      keepAlive: true,
    });
    this.client = client;
    client.on('notification', (message) => {
      if (message.channel === CACHE_INVALIDATION_CHANNEL) this.received(message.payload ?? '', message.processId);
    });
    client.on('error', (error) => this.dropped(client, error));
    client.on('end', () => this.dropped(client, null));
    try {
      await client.connect();
      await client.query(`LISTEN ${CACHE_INVALIDATION_CHANNEL}`);
      await client.query(`SET application_name TO '${LISTENER_APPLICATION_NAME}'`);
      if (this.client !== client) return;
      this.ownPid = (client as Client & { processID: number }).processID;
      this.listening = true;
      this.delayMs = this.options.retryDelayMs ?? 250;
      // Changes made before LISTEN took effect were not delivered to us.
      this.options.onGap();
    } catch (error) {
      this.dropped(client, error as Error);
    }
  }

  private received(payload: string, fromPid: number): void {
    if (payload.startsWith(SYNC)) return this.heardSync(payload.slice(SYNC.length));
    if (payload.startsWith(APPLIED)) return this.heardApplied(payload.slice(APPLIED.length), fromPid);
    if (!this.isOwn(payload, fromPid)) this.options.onChange(payload);
  }

  /** A change this process announced reached its own caches after its commit (announce), once. */
  private isOwn(payload: string, fromPid: number): boolean {
    for (const wait of this.pending.values()) {
      if (wait.position === undefined && wait.fromPid === fromPid && wait.payloads.has(payload)) return true;
    }
    return false;
  }

  private heardSync(token: string): void {
    this.heardSyncs += 1;
    this.positions.set(token, this.heardSyncs);
    if (this.positions.size > REMEMBERED_SYNCS) this.positions.delete(this.positions.keys().next().value as string);
    const own = this.pending.get(token);
    if (own) {
      own.position = this.heardSyncs;
      this.passed(own, this.ownPid);
      return;
    }
    // Every change before this sync has been dispatched: acknowledge once the socket's batch is read.
    if (this.unacknowledged === null) setImmediate(() => this.acknowledge());
    this.unacknowledged = token;
  }

  private heardApplied(token: string, fromPid: number): void {
    const position = this.positions.get(token);
    if (position === undefined) return;
    for (const wait of this.pending.values()) {
      if (wait.position !== undefined && position >= wait.position) this.passed(wait, fromPid);
    }
  }

  private passed(wait: PendingSync, pid: number): void {
    wait.waitingFor.delete(pid);
    if (wait.waitingFor.size === 0) wait.done();
  }

  private acknowledge(): void {
    const token = this.unacknowledged;
    this.unacknowledged = null;
    const client = this.client;
    if (token === null || !client || !this.listening) return;
    // A failure here is a lost connection, which `dropped` handles (the announcer stops waiting at its bound).
    client.query('SELECT pg_notify($1, $2)', [CACHE_INVALIDATION_CHANNEL, `${APPLIED}${token}`]).catch(() => undefined);
  }

  /** This listener can no longer place acknowledgements: its announcements stop waiting. */
  private releaseWaits(): void {
    for (const wait of [...this.pending.values()]) wait.done();
    this.positions.clear();
    this.unacknowledged = null;
  }

  private dropped(client: Client, error: Error | null): void {
    if (this.client !== client) return;
    this.client = null;
    this.listening = false;
    this.releaseWaits();
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
interface ChangeSubscriber {
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
   * caller's answer waits until every listening process (this one included) has applied the
   * change, so a client's next request meets no old copy on any process; at most APPLIED_WITHIN_MS
   * when one is stalled.
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
    const token = listener?.isListening ? listener.nextSyncToken() : null;
    if (token) payloads.push(`${SYNC}${token}`);
    // The listeners are read in the announcing transaction: one that starts listening after it
    // has no copy made before this change (its caches start empty at LISTEN).
    const [row] = (await em.query(
      `WITH sent AS (SELECT pg_notify($1, payload) FROM unnest($2::text[]) AS t(payload))
       SELECT (SELECT count(*) FROM sent) AS sent, pg_backend_pid() AS pid,
              ARRAY(SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = $3) AS listeners`,
      [CACHE_INVALIDATION_CHANNEL, payloads, LISTENER_APPLICATION_NAME],
    )) as { pid: number; listeners: number[] }[];
    const applied = token && listener ? listener.applied(token, row.listeners, row.pid, payloads) : null;
    afterCommit(em, async () => {
      for (const id of ids) this.dispatch(kind, id);
      if (applied) await applied;
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
