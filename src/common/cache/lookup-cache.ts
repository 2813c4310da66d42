import { BoundedMap } from './bounded-map';

/**
 * A per-process cache of lookups (API keys by hash, signing secrets by project). Known values stay
 * 5 s, unknown ones (null) 2 s; an entry is dropped at once when a change to it is announced (same
 * process, or another one through LISTEN/NOTIFY).
 *
 * Invalidation is precise: a change to one key, or to one project (its owner), drops that key's or
 * that project's entries and nothing else, so on a busy deployment one tenant's key churn or plan
 * change does not empty every process's cache. A lookup that raced with a change to what it read
 * stores nothing (it may have read the row before the change committed); lookups of other keys
 * racing with it are unaffected. `clear()` (a lost listener) drops everything and refuses every
 * lookup in flight. Concurrent lookups of one key share one load (a burst of requests with a key
 * not cached yet, or one guess sent many times at once, costs one query); a lookup that starts
 * after a change to what the load reads does not join it.
 */
export const KNOWN_VALUE_TTL_MS = 5_000;
export const UNKNOWN_VALUE_TTL_MS = 2_000;
const MAX_ENTRIES = 10_000;
/** Past this many changes recorded while lookups stay in flight, the cache falls back to `clear()`. */
const MAX_TRACKED_CHANGES = 1_000;

interface Entry<T> {
  value: T | null;
  expiresAt: number;
}

interface LookupCacheOptions<T> {
  /** The owners a value belongs to (a key's project and, for a test key, its live project). */
  ownersOf?: (value: T) => readonly string[];
  /** When a known value stops being true by itself (a time it names), in ms; the default is KNOWN_VALUE_TTL_MS after it was stored. */
  expiresAt?: (value: T, storedAtMs: number) => number;
  /** Past this many entries the oldest eighth is dropped (default 10,000; bounded-map.ts). */
  maxEntries?: number;
  /**
   * False while changes made elsewhere could go unheard (the change listener is not in place yet,
   * or reconnecting): lookups then answer from the database and store nothing.
   */
  storing?: () => boolean;
}

export class LookupCache<T> {
  private readonly entries: BoundedMap<string, Entry<T>>;
  private readonly ownersOf: ((value: T) => readonly string[]) | undefined;
  private readonly storing: () => boolean;
  /** Counts changes; a lookup remembers the count it started at. */
  private changeCount = 0;
  private clearedAt = 0;
  /** When each key and owner last changed; needed only while a lookup that could have raced is in flight. */
  private readonly keyChangedAt = new Map<string, number>();
  private readonly ownerChangedAt = new Map<string, number>();
  private lookupsInFlight = 0;
  /** The load in flight for each key, which later lookups of that key join. */
  private readonly sharedLoads = new Map<string, Promise<T | null>>();

  private readonly expiresAt: (value: T, storedAtMs: number) => number;
  constructor(options: LookupCacheOptions<T> = {}) {
    this.ownersOf = options.ownersOf;
    this.expiresAt = options.expiresAt ?? ((_value, storedAtMs) => storedAtMs + KNOWN_VALUE_TTL_MS);
    this.entries = new BoundedMap(options.maxEntries ?? MAX_ENTRIES);
    this.storing = options.storing ?? (() => true);
  }

  /** The cached value (null: known to be unknown), or undefined when it must be looked up. */
  get(key: string, nowMs: number): T | null | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt > nowMs) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  /**
   * The cached value, or `load`'s answer, stored unless the key, its owner or the whole cache
   * changed while `load` ran. `now` is read after the load, so a slow lookup does not shorten the TTL.
   */
  async lookup(key: string, now: () => number, load: (key: string) => Promise<T | null>): Promise<T | null> {
    const cached = this.get(key, now());
    if (cached !== undefined) return cached;
    const shared = this.sharedLoads.get(key);
    if (shared) return shared;
    const loading = this.loadAndStore(key, now, load);
    this.sharedLoads.set(key, loading);
    try {
      return await loading;
    } finally {
      if (this.sharedLoads.get(key) === loading) this.sharedLoads.delete(key);
    }
  }

  private async loadAndStore(key: string, now: () => number, load: (key: string) => Promise<T | null>): Promise<T | null> {
    const startedAt = this.changeCount;
    this.lookupsInFlight += 1;
    try {
      const value = await load(key);
      if (!this.changedSince(startedAt, key, value) && this.storing()) this.store(key, value, now());
      return value;
    } finally {
      this.lookupsInFlight -= 1;
      if (this.lookupsInFlight === 0) this.forgetChanges();
    }
  }

  /** Drops one key's entry (created, imported, revoked, rotated). */
  invalidate(key: string): void {
    this.changeCount += 1;
    this.entries.delete(key);
    this.sharedLoads.delete(key);
    this.track(this.keyChangedAt, key);
  }

  /** Drops the entries of one owner (a project's plan, name, slug, deletion). */
  invalidateOwner(owner: string): void {
    if (!this.ownersOf) return this.clear();
    this.changeCount += 1;
    // A load in flight may be of this owner's key, which only its answer would tell.
    this.sharedLoads.clear();
    for (const [key, entry] of this.entries) {
      if (entry.value !== null && this.ownersOf(entry.value).includes(owner)) this.entries.delete(key);
    }
    this.track(this.ownerChangedAt, owner);
  }

  /** Drops everything, and refuses whatever lookups are in flight. */
  clear(): void {
    this.changeCount += 1;
    this.clearedAt = this.changeCount;
    this.entries.clear();
    this.sharedLoads.clear();
    this.forgetChanges();
  }

  private changedSince(startedAt: number, key: string, value: T | null): boolean {
    if (this.clearedAt > startedAt) return true;
    if ((this.keyChangedAt.get(key) ?? 0) > startedAt) return true;
    // An unknown key has no owner: its owner's changes cannot make it known (only its own creation can).
    if (value === null || !this.ownersOf) return false;
    return this.ownersOf(value).some((owner) => (this.ownerChangedAt.get(owner) ?? 0) > startedAt);
  }

  private store(key: string, value: T | null, nowMs: number): void {
    this.entries.set(key, { value, expiresAt: value === null ? nowMs + UNKNOWN_VALUE_TTL_MS : this.expiresAt(value, nowMs) });
  }

  private track(changedAt: Map<string, number>, id: string): void {
    if (this.lookupsInFlight === 0) return;
    if (this.keyChangedAt.size + this.ownerChangedAt.size >= MAX_TRACKED_CHANGES) return this.clear();
    changedAt.set(id, this.changeCount);
  }

  private forgetChanges(): void {
    this.keyChangedAt.clear();
    this.ownerChangedAt.clear();
  }
}
