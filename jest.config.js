/** Tests sit beside the code they drive (src/**\/*.test.ts) and end-to-end suites live in test/. */
const os = require('node:os');

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { diagnostics: false }] },
  // marked (the GitHub-flavoured renderer report tests read their markdown with) ships ES modules
  // to jest's resolver; its UMD build is the same renderer as CommonJS.
  moduleNameMapper: { '^marked$': '<rootDir>/node_modules/marked/lib/marked.umd.js' },
  // Every exchange with an emulator is checked against the vendor's references (test/contract).
  setupFilesAfterEnv: ['<rootDir>/test/contract/setup.ts'],
  testTimeout: 60000,
  // Half as many workers again as cores: a worker waits for much of its time (a Retry-After, a
  // terraform or npm it started, a PostgreSQL starting), and the command now runs in the
  // worker's own process; three workers keep two cores busy (two kept them 70% busy).
  // (Computed: jest reads a percentage above 100% as that many workers.)
  maxWorkers: Math.max(2, Math.round(os.availableParallelism() * 1.5)),
  reporters: ['default', '<rootDir>/test/summary-reporter.js'],
};
