/**
 * What the running test file has started and not yet closed. Kept apart from TestApp so the jest
 * setup file that empties it stays light for the unit specs, which load it too.
 */
const starting = new Set<Promise<unknown>>();
const closers = new Set<() => Promise<void>>();
/** Run once the file's apps are closed: what they leave behind outside the test's own database. */
const cleanups = new Map<string, () => Promise<void>>();

/** Tracks a start until it settles, so a start that outlives its beforeAll is still waited for. */
export function trackStart<T>(start: Promise<T>): Promise<T> {
  starting.add(start);
  const settled = () => starting.delete(start);
  start.then(settled, settled);
  return start;
}

/** Registers how to close something open; returns the function that unregisters it. */
export function trackOpen(close: () => Promise<void>): () => void {
  closers.add(close);
  return () => closers.delete(close);
}

/**
 * Registers, under `name` (once per name), what to clean when the file ends, after every app it
 * opened is closed: the Redis keys of processes a test starts and stops (or kills) on its own.
 */
export function cleanUpAtFileEnd(name: string, cleanup: () => Promise<void>): void {
  if (!cleanups.has(name)) cleanups.set(name, cleanup);
}

/**
 * Closes whatever the file left open: an app whose start outlived a timed-out beforeAll (whose
 * afterAll then had nothing to close), or one a failing hook never reached. Left running, its
 * embedded database, sockets and job workers would keep the jest worker process from exiting.
 */
export async function closeOpenApps(): Promise<void> {
  await Promise.allSettled([...starting]);
  await Promise.allSettled([...closers].map((close) => close()));
  const pending = [...cleanups.values()];
  cleanups.clear();
  await Promise.allSettled(pending.map((cleanup) => cleanup()));
}
