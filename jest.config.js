/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: { module: 'commonjs', moduleResolution: 'node', target: 'ES2022', esModuleInterop: true, isolatedModules: true }, diagnostics: false }],
  },
  // transformers.js ships ESM only; tests that load it use dynamic import through a helper.
  testTimeout: 30000,
  maxWorkers: 2,
};
