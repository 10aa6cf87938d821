/** One jest run over every package and service; ESM + TypeScript through @swc/jest. */
const swc = ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'es6' } }];

export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': swc },
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  testMatch: [
    '<rootDir>/{packages,services}/*/src/**/*.test.ts',
    '<rootDir>/{packages,services}/*/test/**/*.test.ts',
    '<rootDir>/test/**/*.test.ts',
  ],
  testPathIgnorePatterns: ['/node_modules/', '/generated/'],
  testTimeout: 60000,
  maxWorkers: 2,
  // Each test file loads the suite's modules afresh in its own vm context, and a worker keeps some of every file's
  // heap; a worker above this after a file is replaced, so a long run cannot reach the heap limit (it once did at 4 GB).
  workerIdleMemoryLimit: '1GB',
  // Slowest files first (jest's cache, else the last whole suite's timings, else scripts/test-durations.json).
  testSequencer: '<rootDir>/scripts/test-sequencer.mjs',
  reporters: ['default', '<rootDir>/scripts/summary-reporter.cjs'],
};
