/** A full map drops this fraction of its entries, the oldest: 1/8. */
const EVICTED_SHARE = 8;

/**
 * A Map that holds at most `maxEntries`: storing a new key in a full map first drops its oldest
 * eighth, in the order keys were first stored (a key stored again keeps its place; one deleted and
 * stored again counts from then). Starting again from empty would send every reader of a full
 * cache to what it spares at once, again each time it fills; an eighth at a time keeps the most
 * recent seven eighths and costs one pass over the dropped keys.
 *
 * Every per-process cache whose keys come from callers (API keys, hostnames, bells, queries as
 * sent) is one of these, so that no caller can grow a process's memory without end.
 */
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(readonly maxEntries: number) {
    super();
    if (!Number.isInteger(maxEntries) || maxEntries < 1)
      throw new Error(`BoundedMap takes a whole number of entries above 0, got ${maxEntries}`);
  }

  override set(key: K, value: V): this {
    if (this.size >= this.maxEntries && !this.has(key)) this.dropOldest();
    return super.set(key, value);
  }

  private dropOldest(): void {
    let excess = this.size - this.maxEntries + Math.max(1, Math.floor(this.maxEntries / EVICTED_SHARE));
    for (const key of this.keys()) {
      if (excess <= 0) break;
      this.delete(key);
      excess -= 1;
    }
  }
}
