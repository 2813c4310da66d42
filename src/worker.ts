import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createContext, failStart, flushLogs, prepare } from './bootstrap';
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
  new Logger('Worker').log('Launch Service workers running');
  // As the API does once it listens: the start-up lines (the migrations this process ran) are
  // written out before the heartbeat tells anyone the worker is up, not up to a second later.
  await flushLogs();
  startWorkerHeartbeat(context.get(Database), config.dataDir);
}

const lifecycle = new ProcessLifecycle();
worker(lifecycle).catch((error: unknown) => failStart(lifecycle, error));
