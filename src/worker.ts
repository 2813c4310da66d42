import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createContext, prepare } from './bootstrap';
import { closeOnSignals } from './shutdown';
import { Database } from './infra/database/database';
import { startWorkerHeartbeat } from './infra/queue/worker-heartbeat';

/** Job workers only (deliveries, scheduled publishing, emails, retention), scaled apart from the API. */
async function worker(): Promise<void> {
  const { config, embedded } = await prepare({ WORKERS: 'on' });
  const context = await createContext(config);
  closeOnSignals(context, embedded, config.deadlines.shutdownGraceMs);
  startWorkerHeartbeat(context.get(Database), config.dataDir);
  new Logger('Worker').log('Launch Service workers running');
}

worker().catch((error: unknown) => {
  process.stderr.write(`Launch Service worker failed to start: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
