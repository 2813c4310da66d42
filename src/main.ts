import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createHttpApp, failStart, flushLogs, prepare } from './bootstrap';
import { ProcessLifecycle } from './shutdown';
import { adviseFirstProject, seedDemoProject } from './demo-seed';

/** The API server; it also runs the job workers unless WORKERS=off. */
async function main(lifecycle: ProcessLifecycle): Promise<void> {
  const { config, embedded } = await prepare(lifecycle, { share: true });
  await lifecycle.checkpoint();
  const app = await createHttpApp(config);
  lifecycle.holdApp(app, config.deadlines.shutdownGraceMs);
  await lifecycle.checkpoint();
  const demo = embedded ? await seedDemoProject(app, config.publicBaseUrl) : null;
  if (!embedded) await adviseFirstProject(app);
  await app.listen(config.port);
  new Logger('Main').log(`Launch Service listening on ${config.publicBaseUrl} (port ${config.port}); docs at /docs`);
  // JSON lines wait in pino's buffer until it fills: the start-up lines are written out now, and
  // the demo banner after them, so that it stays on screen.
  await flushLogs();
  demo?.print();
}

const lifecycle = new ProcessLifecycle();
main(lifecycle).catch((error: unknown) => failStart(lifecycle, error));
