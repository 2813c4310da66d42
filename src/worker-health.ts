import { loadConfig } from './config/app-config';
import { checkWorkerHeartbeat } from './infra/queue/worker-heartbeat';

/**
 * `node dist/worker-health.js`: the worker container's health check. Exit 0 while the worker's
 * heartbeat file in DATA_DIR is fresh, 1 otherwise (infra/queue/worker-heartbeat.ts). It loads
 * only the configuration, so a probe every 30 s costs little.
 */
process.exit(checkWorkerHeartbeat(loadConfig().dataDir));
