/** Tests sit beside the code they drive (src/**\/*.test.ts) and end-to-end suites live in test/. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { diagnostics: false }] },
  // Every exchange with an emulator is checked against the vendor's references (test/contract).
  setupFilesAfterEnv: ['<rootDir>/test/contract/setup.ts'],
  testTimeout: 60000,
  maxWorkers: 2,
  reporters: ['default', '<rootDir>/test/summary-reporter.js'],
};
