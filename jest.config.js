/**
 * One `npm test`: unit specs next to the code (src/**\/*.spec.ts) and supertest e2e suites
 * (test/**\/*.e2e-spec.ts) against a real PostgreSQL (DATABASE_URL) or the embedded one.
 */
module.exports = {
  testEnvironment: 'node',
  rootDir: '.',
  moduleFileExtensions: ['ts', 'js', 'json'],
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json', diagnostics: false }] },
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  setupFilesAfterEnv: ['<rootDir>/test/support/close-open-apps.ts'],
  maxWorkers: 2,
  // A worker that ran many suites holds a large heap; on two busy cores tearing its process down
  // after the 'exit' event can outlast jest's default 500 ms and draw a "failed to exit gracefully"
  // warning although nothing is left open (a worker reaches 'exit' within a millisecond of jest's end
  // message, holding only its IPC channel and stdio). A real leak still shows: it outlasts this too.
  workerGracefulExitTimeout: 5_000,
  testTimeout: 60_000,
  slowTestThreshold: 15,
};
