import Redis from 'ioredis';

/**
 * Deletes what an app of QUEUE_PREFIX `prefix` left in Redis: its queues' keys (`prefix:…`), its
 * counters, whose names put the prefix inside a hash tag (`{prefix:rl:…}:hits`), and the same for
 * its peer apps, whose prefixes extend it (`prefix_…`, peer-app.ts).
 */
export async function deleteRedisKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url);
  try {
    for (const pattern of [`${prefix}[:_]*`, `{${prefix}[:_]*`]) {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
        if (keys.length > 0) await redis.del(...keys);
        cursor = next;
      } while (cursor !== '0');
    }
  } finally {
    redis.disconnect();
  }
}
