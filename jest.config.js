const { spawnSync } = require('node:child_process');

// The embedded database (PGlite) loads node:fs, zlib and its WebAssembly with import(), which jest
// runs only when Node has --experimental-vm-modules. `npm test` sets it; a plain `npx jest <file>`
// is run again here with it, so both work the same.
const VM_MODULES = '--experimental-vm-modules';
const hasVmModules = process.execArgv.includes(VM_MODULES) || (process.env.NODE_OPTIONS ?? '').split(/\s+/).includes(VM_MODULES);
if (!hasVmModules && /[\\/]jest(\.js)?$/.test(process.argv[1] ?? '')) {
  const NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} ${VM_MODULES} --no-warnings=ExperimentalWarning`.trim();
  const run = spawnSync(process.execPath, process.argv.slice(1), { stdio: 'inherit', env: { ...process.env, NODE_OPTIONS } });
  process.exit(run.status ?? 1);
}

const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json', diagnostics: false }] };

/**
 * One `npm test`, two projects. `unit`: specs next to the code (src/**\/*.spec.ts), which need no
 * database and no build, so `npx jest src/feedback` starts at once. `e2e`: supertest suites
 * (test/**\/*.e2e-spec.ts) against a real PostgreSQL (DATABASE_URL) or the embedded one; their
 * global set-up (a migrated template database and a background build of the service) runs only when
 * a run selects at least one of them.
 */
const shared = {
  testEnvironment: 'node',
  rootDir: __dirname,
  moduleFileExtensions: ['ts', 'js', 'json'],
  transform,
  slowTestThreshold: 15,
};

module.exports = {
  projects: [
    { ...shared, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts'] },
    {
      ...shared,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
      setupFilesAfterEnv: ['<rootDir>/test/support/close-open-apps.ts'],
    },
  ],
  maxWorkers: 2,
  // A worker that ran many suites holds a large heap; on two busy cores tearing its process down
  // after the 'exit' event can outlast jest's default 500 ms and draw a "failed to exit gracefully"
  // warning although nothing is left open (a worker reaches 'exit' within a millisecond of jest's end
  // message, holding only its IPC channel and stdio). A real leak still shows: it outlasts this too.
  workerGracefulExitTimeout: 5_000,
  testTimeout: 60_000,
};
