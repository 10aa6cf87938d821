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
  // Slowest files first (jest's cache, else the last whole suite's timings, else scripts/test-durations.json).
  testSequencer: '<rootDir>/scripts/test-sequencer.mjs',
  reporters: ['default', '<rootDir>/scripts/summary-reporter.cjs'],
};
