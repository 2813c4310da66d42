/** The baselines' settings, from the environment the bench gives every target. */
function workOptionsFromEnv() {
  return {
    databaseUrl: process.env.DATABASE_URL,
    redisUrl: process.env.REDIS_URL,
    queuePrefix: process.env.QUEUE_PREFIX,
    poolSize: Number(process.env.BENCH_POOL_SIZE ?? 10),
    browserLimit: Number(process.env.BROWSER_RATE_LIMIT ?? 120),
    encryptionKey: Buffer.from(process.env.ENCRYPTION_KEY ?? '', 'base64'),
  };
}

module.exports = { workOptionsFromEnv };
