import { execFile } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
// Loads PGlite with import(): it fails when jest runs without --experimental-vm-modules.
const SPEC = 'src/infra/database/embedded-postgres.spec.ts';
// An e2e suite that reads only files: the global set-up is what it costs.
const E2E_SPEC = 'test/lint/layer-list.e2e-spec.ts';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npx jest <args>` in the checkout, as a developer types it: no NODE_OPTIONS of ours. */
function plainJest(args: string[]): Promise<Run> {
  const { NODE_OPTIONS: _nodeOptions, JEST_WORKER_ID: _worker, ...env } = process.env;
  return new Promise((resolve) => {
    execFile('npx', ['--no-install', 'jest', ...args], { cwd: ROOT, env, timeout: 150_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('npx jest <file>', () => {
  it('runs a unit spec that needs --experimental-vm-modules at once: no database set-up, no build', async () => {
    const run = await plainJest(['-w', '1', SPEC]);
    expect(run).toMatchObject({ code: 0 });
    expect(run.stderr).toMatch(/Tests: +1 passed, 1 total/);
    expect(run.stderr).not.toMatch(/^test setup:/m);
  }, 180_000);

  // Runs the global set-up again in the child (a template database and the background build):
  // about 10 s on PostgreSQL, longer on the embedded database.
  it('runs an e2e suite after the set-up, and says what the set-up is doing', async () => {
    const run = await plainJest(['-w', '1', E2E_SPEC]);
    expect(run).toMatchObject({ code: 0 });
    expect(run.stderr).toMatch(/Test Suites: +1 passed, 1 total/);
    expect(run.stderr).toMatch(/^test setup: compiling the service in the background/m);
    expect(run.stderr).toMatch(/^test setup: migrating an? (template|embedded template) database.*: done in \d+\.\d s$/m);
  }, 180_000);
});
