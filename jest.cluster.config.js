const base = require('./jest.config.js');

/**
 * `npm run test:cluster`: the scale-out scenarios (test/cluster), each on several API processes and
 * workers started from the build. One file at a time: each already runs four or more processes.
 */
const e2e = { ...base.projects.find((project) => project.displayName === 'e2e') };
delete e2e.displayName;

module.exports = {
  ...e2e,
  workerGracefulExitTimeout: base.workerGracefulExitTimeout,
  testMatch: ['<rootDir>/test/cluster/**/*.cluster-spec.ts'],
  maxWorkers: 1,
  testTimeout: 180_000,
};
