const base = require('./jest.config.js');

/**
 * `npm run test:cluster`: the scale-out scenarios (test/cluster), each on several API processes and
 * workers started from the build. One file at a time: each already runs four or more processes.
 */
module.exports = {
  ...base,
  testMatch: ['<rootDir>/test/cluster/**/*.cluster-spec.ts'],
  maxWorkers: 1,
  testTimeout: 180_000,
};
