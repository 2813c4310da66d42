/**
 * The per-process cache of key lookups, keyed by key hash. Known keys (revoked ones included) stay
 * 5 s, unknown keys 2 s; every entry is dropped at once when a change to its key is announced
 * (same process, or another one through LISTEN/NOTIFY). The generation makes a lookup that raced
 * with an invalidation leave nothing behind: it read the database before the change committed.
 */
export const KNOWN_KEY_TTL_MS = 5_000;
export const UNKNOWN_KEY_TTL_MS = 2_000;
const MAX_ENTRIES = 10_000;

interface Entry<T> {
  value: T | null;
  expiresAt: number;
}

export class ApiKeyCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private currentGeneration = 0;

  /** Read before a lookup and handed back to `set`. */
  get generation(): number {
    return this.currentGeneration;
  }

  /** The cached value (null: known to be unknown), or undefined when it must be looked up. */
  get(hash: string, nowMs: number): T | null | undefined {
    const entry = this.entries.get(hash);
    if (!entry) return undefined;
    if (entry.expiresAt > nowMs) return entry.value;
    this.entries.delete(hash);
    return undefined;
  }

  /** Stores a lookup's result unless something was invalidated since the lookup began. */
  set(hash: string, value: T | null, generation: number, nowMs: number): void {
    if (generation !== this.currentGeneration) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(hash, { value, expiresAt: nowMs + (value === null ? UNKNOWN_KEY_TTL_MS : KNOWN_KEY_TTL_MS) });
  }

  invalidate(hash: string): void {
    this.currentGeneration += 1;
    this.entries.delete(hash);
  }

  clear(): void {
    this.currentGeneration += 1;
    this.entries.clear();
  }
}
