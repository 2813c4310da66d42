import { LookupCache, KNOWN_VALUE_TTL_MS, UNKNOWN_VALUE_TTL_MS } from './lookup-cache';

interface Key {
  project: string;
  live?: string;
}

const ownersOf = (key: Key) => (key.live ? [key.project, key.live] : [key.project]);

/** A load the test finishes by hand, so changes can land while it is in flight. */
function pendingLoad<T>() {
  let finish!: (value: T) => void;
  let fail!: (error: Error) => void;
  const promise = new Promise<T>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  return { load: jest.fn(() => promise), finish, fail };
}

describe('LookupCache', () => {
  let nowMs: number;
  const now = () => nowMs;
  let cache: LookupCache<Key>;

  beforeEach(() => {
    nowMs = 1_000_000;
    cache = new LookupCache<Key>({ ownersOf });
  });

  it('keeps a known key 5 s and an unknown one 2 s', async () => {
    await cache.lookup('known', now, async () => ({ project: 'p1' }));
    await cache.lookup('unknown', now, async () => null);
    nowMs += UNKNOWN_VALUE_TTL_MS - 1;
    expect(cache.get('unknown', nowMs)).toBeNull();
    nowMs += 1;
    expect(cache.get('unknown', nowMs)).toBeUndefined();
    nowMs += KNOWN_VALUE_TTL_MS - UNKNOWN_VALUE_TTL_MS - 1;
    expect(cache.get('known', nowMs)).toEqual({ project: 'p1' });
    nowMs += 1;
    expect(cache.get('known', nowMs)).toBeUndefined();
  });

  it('answers from memory without loading again', async () => {
    const load = jest.fn(async () => ({ project: 'p1' }));
    await cache.lookup('k', now, load);
    expect(await cache.lookup('k', now, load)).toEqual({ project: 'p1' });
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('shares one load between concurrent lookups of one key', async () => {
    const pending = pendingLoad<Key | null>();
    const answers = [cache.lookup('k', now, pending.load), cache.lookup('k', now, pending.load), cache.lookup('k', now, pending.load)];
    pending.finish(null);
    expect(await Promise.all(answers)).toEqual([null, null, null]);
    expect(pending.load).toHaveBeenCalledTimes(1);
    expect(cache.get('k', nowMs)).toBeNull();
  });

  it('shares a failed load with the lookups that joined it, and loads afresh after', async () => {
    const pending = pendingLoad<Key | null>();
    const answers = [cache.lookup('k', now, pending.load), cache.lookup('k', now, pending.load)];
    pending.fail(new Error('database busy'));
    for (const answer of answers) await expect(answer).rejects.toThrow('database busy');
    expect(await cache.lookup('k', now, async () => ({ project: 'p1' }))).toEqual({ project: 'p1' });
  });

  it("starts a load of its own after a change to the key, the key's owner or the whole cache", async () => {
    for (const change of [() => cache.invalidate('k'), () => cache.invalidateOwner('p1'), () => cache.clear()]) {
      const before = pendingLoad<Key | null>();
      const after = pendingLoad<Key | null>();
      const stale = cache.lookup('k', now, before.load);
      change();
      const fresh = cache.lookup('k', now, after.load);
      before.finish(null);
      after.finish({ project: 'p1' });
      expect(await stale).toBeNull();
      expect(await fresh).toEqual({ project: 'p1' });
      expect(after.load).toHaveBeenCalledTimes(1);
      cache.clear();
    }
  });

  it('stores nothing from a lookup that raced with a change to its own key', async () => {
    const pending = pendingLoad<Key | null>();
    const answer = cache.lookup('k', now, pending.load);
    cache.invalidate('k');
    pending.finish(null);
    expect(await answer).toBeNull();
    expect(cache.get('k', nowMs)).toBeUndefined();
  });

  it("keeps a lookup that raced only with other keys' and other projects' changes", async () => {
    const pending = pendingLoad<Key | null>();
    const answer = cache.lookup('k', now, pending.load);
    cache.invalidate('another key');
    cache.invalidateOwner('another project');
    pending.finish({ project: 'p1' });
    await answer;
    expect(cache.get('k', nowMs)).toEqual({ project: 'p1' });
  });

  it("stores nothing from a lookup that raced with a change to the key's project or its live project", async () => {
    for (const changed of ['twin', 'live']) {
      const pending = pendingLoad<Key | null>();
      const answer = cache.lookup('test key', now, pending.load);
      cache.invalidateOwner(changed);
      pending.finish({ project: 'twin', live: 'live' });
      expect(await answer).toEqual({ project: 'twin', live: 'live' });
      expect(cache.get('test key', nowMs)).toBeUndefined();
    }
  });

  it('keeps an unknown key through a project change (only its own creation can make it known)', async () => {
    const pending = pendingLoad<Key | null>();
    const answer = cache.lookup('k', now, pending.load);
    cache.invalidateOwner('p1');
    pending.finish(null);
    await answer;
    expect(cache.get('k', nowMs)).toBeNull();
  });

  it("drops a project's entries and its test twin's, and nobody else's", async () => {
    await cache.lookup('live key', now, async () => ({ project: 'p1' }));
    await cache.lookup('test key', now, async () => ({ project: 'p1-test', live: 'p1' }));
    await cache.lookup('other key', now, async () => ({ project: 'p2' }));
    await cache.lookup('unknown', now, async () => null);
    cache.invalidateOwner('p1');
    expect(cache.get('live key', nowMs)).toBeUndefined();
    expect(cache.get('test key', nowMs)).toBeUndefined();
    expect(cache.get('other key', nowMs)).toEqual({ project: 'p2' });
    expect(cache.get('unknown', nowMs)).toBeNull();
  });

  it('refuses every lookup in flight on clear', async () => {
    const first = pendingLoad<Key | null>();
    const second = pendingLoad<Key | null>();
    const answers = [cache.lookup('a', now, first.load), cache.lookup('b', now, second.load)];
    cache.clear();
    first.finish({ project: 'p1' });
    second.finish(null);
    await Promise.all(answers);
    expect(cache.get('a', nowMs)).toBeUndefined();
    expect(cache.get('b', nowMs)).toBeUndefined();
  });

  it('remembers a change only while a lookup that could have raced with it is in flight', async () => {
    cache.invalidate('k');
    // Made before the lookup started: the lookup read the changed row.
    await cache.lookup('k', now, async () => ({ project: 'p1' }));
    expect(cache.get('k', nowMs)).toEqual({ project: 'p1' });
  });

  it('leaves nothing behind when a load fails, and keeps working', async () => {
    const pending = pendingLoad<Key | null>();
    const failed = cache.lookup('k', now, pending.load);
    pending.fail(new Error('connection lost'));
    await expect(failed).rejects.toThrow('connection lost');
    expect(cache.get('k', nowMs)).toBeUndefined();
    await cache.lookup('k', now, async () => ({ project: 'p1' }));
    expect(cache.get('k', nowMs)).toEqual({ project: 'p1' });
  });

  it('falls back to clearing when too many changes land during one lookup', async () => {
    await cache.lookup('warm', now, async () => ({ project: 'p9' }));
    const pending = pendingLoad<Key | null>();
    const answer = cache.lookup('k', now, pending.load);
    // 1,000 changes are tracked one by one; the next clears.
    for (let i = 0; i <= 1_000; i += 1) cache.invalidate(`key ${i}`);
    expect(cache.get('warm', nowMs)).toBeUndefined();
    pending.finish({ project: 'p1' });
    await answer;
    expect(cache.get('k', nowMs)).toBeUndefined();
  });

  it('makes room when full by dropping the oldest eighth, keeping the rest', async () => {
    const small = new LookupCache<string>({ maxEntries: 16 });
    for (let i = 0; i < 16; i += 1) await small.lookup(`k${i}`, now, async (key) => `v-${key}`);
    await small.lookup('k16', now, async (key) => `v-${key}`);
    // Full at 16: the two stored first went, the fourteen after them and the new one stayed.
    const held = Array.from({ length: 17 }, (_, i) => small.get(`k${i}`, nowMs) !== undefined);
    expect(held).toEqual([false, false, ...Array<boolean>(15).fill(true)]);
    // An entry stored again after it expired counts from then.
    nowMs += KNOWN_VALUE_TTL_MS + 1;
    await small.lookup('k2', now, async () => 'again');
    for (let i = 17; i < 31; i += 1) await small.lookup(`k${i}`, now, async (key) => `v-${key}`);
    expect(small.get('k2', nowMs)).toBe('again');
  });

  it('clears on a project change when values have no owners', async () => {
    const plain = new LookupCache<string>();
    await plain.lookup('a', now, async () => 'secret');
    plain.invalidateOwner('p1');
    expect(plain.get('a', nowMs)).toBeUndefined();
  });

  it('stores nothing while changes made elsewhere could go unheard, and caches again once they cannot', async () => {
    let listening = false;
    const guarded = new LookupCache<Key>({ ownersOf, storing: () => listening });
    const load = jest.fn(async () => ({ project: 'p1' }));
    await guarded.lookup('k', now, load);
    await guarded.lookup('k', now, load);
    expect(load).toHaveBeenCalledTimes(2);
    expect(guarded.get('k', nowMs)).toBeUndefined();
    listening = true;
    await guarded.lookup('k', now, load);
    await guarded.lookup('k', now, load);
    expect(load).toHaveBeenCalledTimes(3);
    expect(guarded.get('k', nowMs)).toEqual({ project: 'p1' });
  });
});
