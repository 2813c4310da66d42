import { rmSync } from 'node:fs';
import { withAdminClient } from './test-database';

export default async function globalTeardown(): Promise<void> {
  const embeddedTemplate = process.env.LAUNCH_TEST_EMBEDDED_TEMPLATE;
  if (embeddedTemplate) rmSync(embeddedTemplate, { force: true });
  const build = process.env.LAUNCH_TEST_BUILD_DIR;
  if (build) {
    stopBuild(Number(process.env.LAUNCH_TEST_BUILD_PID));
    for (const path of [build, `${build}.log`, `${build}.failed`]) rmSync(path, { recursive: true, force: true });
  }
  const base = process.env.DATABASE_URL;
  const template = process.env.LAUNCH_TEST_TEMPLATE;
  if (!base || !template) return;
  await withAdminClient(base, (client) => client.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`));
}

/** A run that never needed the build may end before it does: stop the compiler's process group. */
function stopBuild(pid: number): void {
  if (!pid) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already finished
  }
}
