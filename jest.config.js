/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: { module: 'commonjs', moduleResolution: 'node', target: 'ES2022', esModuleInterop: true, isolatedModules: true }, diagnostics: false }],
  },
  // transformers.js ships ESM only; tests that load it use dynamic import through a helper.
  // A hang guard, not a speed limit: the suite must pass with a CPU hog on every core (npm run test:stress),
  // where a test that takes 10 s alone can take 40. Waits inside tests give up earlier (HANG_MS in
  // test/eventually.ts) so a hang names what it waited for.
  testTimeout: 120_000,
  maxWorkers: 2,
  // A whole-suite run builds the plugin and the bridge once for every spec (test/build-once.ts).
  globalSetup: '<rootDir>/test/global-build.ts',
  globalTeardown: '<rootDir>/test/global-build-teardown.ts',
};
