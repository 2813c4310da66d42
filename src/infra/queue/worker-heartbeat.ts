import { Logger } from '@nestjs/common';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
// A type only: the health check (worker-health.ts) loads this file and must stay light.
import type { Database } from '../database/database.service';

/**
 * The worker's own health check. A worker serves no HTTP, so a container probe cannot ask it; the
 * worker proves it is alive by touching a file while its event loop runs and its database answers,
 * and `node dist/worker-health.js` (the container health check) says whether that file is fresh.
 * A stuck event loop or a lost database both let the file go stale.
 */
const HEARTBEAT_INTERVAL_MS = 10_000;
/** Three missed beats: one slow query or a long job is not yet unhealthy. */
export const HEARTBEAT_MAX_AGE_MS = 3 * HEARTBEAT_INTERVAL_MS;

export function heartbeatPath(dataDir: string): string {
  return join(dataDir, 'worker.heartbeat');
}

/** Beats now and every HEARTBEAT_INTERVAL_MS; the timer never keeps the process alive. */
export function startWorkerHeartbeat(db: Database, dataDir: string): void {
  const logger = new Logger('WorkerHeartbeat');
  let warned = false;
  const beat = async () => {
    try {
      await db.manager.query('SELECT 1');
      mkdirSync(dataDir, { recursive: true });
      writeFileSync(heartbeatPath(dataDir), `${new Date().toISOString()}\n`);
      warned = false;
    } catch (error) {
      // No beat: the file goes stale and the health check fails. Said once, not every 10 s.
      if (!warned) logger.warn(`worker heartbeat missed: ${(error as Error).message}`);
      warned = true;
    }
  };
  void beat();
  setInterval(() => void beat(), HEARTBEAT_INTERVAL_MS).unref();
}

/** The health check's answer: 0 when the heartbeat file is fresh, 1 when it is old or missing. */
export function checkWorkerHeartbeat(dataDir: string, now = Date.now()): 0 | 1 {
  try {
    return now - statSync(heartbeatPath(dataDir)).mtimeMs <= HEARTBEAT_MAX_AGE_MS ? 0 : 1;
  } catch {
    return 1;
  }
}
