import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createHttpApp, prepare } from './bootstrap';
import { closeOnSignals } from './shutdown';
import { seedDemoProject } from './demo-seed';

/** The API server; it also runs the job workers unless WORKERS=off. */
async function main(): Promise<void> {
  const { config, embedded } = await prepare();
  const app = await createHttpApp(config);
  closeOnSignals(app, embedded, config.deadlines.shutdownGraceMs);
  if (embedded) await seedDemoProject(app, config.publicBaseUrl);
  await app.listen(config.port);
  new Logger('Main').log(`Launch Service listening on ${config.publicBaseUrl} (port ${config.port}); docs at /docs`);
}

main().catch((error: unknown) => {
  process.stderr.write(`Launch Service failed to start: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
