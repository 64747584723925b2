const os = require('node:os');

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts', '**/*.test.tsx'],
  transform: {
    '^.+\\.tsx?$': 'ts-jest',
  },
  testTimeout: 60000,
  // Jest's default is one worker per core but one: a single worker on these 2-core machines, where most
  // suites wait on a sandbox over loopback as much as they compute. One and a half per core keep both busy
  // (a count: jest reads a percentage over 100 as a number of workers).
  maxWorkers: Math.ceil(1.5 * (os.availableParallelism ? os.availableParallelism() : os.cpus().length)),
  // Every test file starts at one pinned instant (FIN_TEST_NOW overrides it; see the file).
  setupFiles: ['<rootDir>/test/support/pinnedClock.js'],
  globalSetup: '<rootDir>/test/support/globalSetup.ts',
  globalTeardown: '<rootDir>/test/support/globalTeardown.ts',
};
