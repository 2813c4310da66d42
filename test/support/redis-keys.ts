import Redis from 'ioredis';
import { cleanUpAtFileEnd } from './open-apps';

/**
 * Deletes what an app of QUEUE_PREFIX `prefix` left in Redis: its queues' keys (`prefix:…`), its
 * counters, whose names put the prefix inside a hash tag (`{prefix:rl:…}:hits`), and the same for
 * its peer apps, whose prefixes extend it (`prefix_…`, peer-app.ts). SCAN, never KEYS or FLUSHALL:
 * other suites share the server. Answers how many keys went.
 */
export async function deleteRedisKeys(url: string, prefix: string): Promise<number> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  let deleted = 0;
  try {
    for (const pattern of [`${prefix}[:_]*`, `{${prefix}[:_]*`]) {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
        if (keys.length > 0) deleted += await redis.unlink(...keys);
        cursor = next;
      } while (cursor !== '0');
    }
  } finally {
    redis.disconnect();
  }
  return deleted;
}

/**
 * Deletes the keys of QUEUE_PREFIX `prefix` when the test file ends, for processes a test starts
 * and stops on its own (server processes, second processes of a deployment), often more than once
 * with one prefix: their keys must outlive each stop, not the file. Nothing without a Redis URL.
 */
export function deleteRedisKeysAtFileEnd(url: string | undefined, prefix: string | undefined): void {
  if (!url || !prefix) return;
  cleanUpAtFileEnd(`redis:${url}:${prefix}`, async () => void (await deleteRedisKeys(url, prefix)));
}
