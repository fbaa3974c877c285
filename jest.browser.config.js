/** Real-browser tests (`npm run test:browser`): need Debian's chromium at /usr/bin/chromium (or CHROMIUM_PATH). */
/** @type {import('jest').Config} */
module.exports = {
  preset: 'ts-jest',
  testEnvironment: 'node',
  roots: ['<rootDir>/test/browser'],
  testMatch: ['**/*.test.ts'],
  testTimeout: 90000,
  maxWorkers: 1,
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
};
