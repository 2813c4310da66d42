import type { Cluster } from './cluster';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const range = (count: number) => Array.from({ length: count }, (_, index) => index + 1);

/** Reads until `done`, every 250 ms, failing with the last value after `withinMs`. */
export async function poll<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, withinMs: number): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)} after ${withinMs / 1000} s`);
    await sleep(250);
  }
}

/**
 * `cluster.createProject`, tried again while the PostgreSQL server has no connection to spare: the
 * CLI opens its own, and parallel suites on the same server may hold them all for a moment.
 */
export async function createProject(cluster: Cluster, name: string): Promise<{ projectId: string; secretKey: string }> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await cluster.createProject('scale', name);
    } catch (error) {
      if (attempt === 10 || !/too many clients/.test(String(error))) throw error;
      await sleep(1_000);
    }
  }
}
