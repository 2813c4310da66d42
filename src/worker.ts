import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createContext, failStart, prepare } from './bootstrap';
import { Database } from './infra/database/database.service';
import { startWorkerHeartbeat } from './infra/queue/worker-heartbeat';
import { ProcessLifecycle } from './shutdown';

/** Job workers only (deliveries, scheduled publishing, emails, retention), scaled apart from the API. */
async function worker(lifecycle: ProcessLifecycle): Promise<void> {
  const { config } = await prepare(lifecycle, { overrides: { WORKERS: 'on' } });
  await lifecycle.checkpoint();
  const context = await createContext(config);
  lifecycle.holdApp(context, config.deadlines.shutdownGraceMs);
  await lifecycle.checkpoint();
  startWorkerHeartbeat(context.get(Database), config.dataDir);
  new Logger('Worker').log('Launch Service workers running');
}

const lifecycle = new ProcessLifecycle();
worker(lifecycle).catch((error: unknown) => failStart(lifecycle, error));
