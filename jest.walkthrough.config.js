/**
 * docs/changing-the-contract.md's worked example on a copy of the project (`npm run test:walkthrough`): it
 * generates, type-checks and builds the copy, so it runs on its own, once in CI (on SQLite and PostgreSQL).
 */
/** @type {import('jest').Config} */
module.exports = {
  preset: 'ts-jest',
  testEnvironment: 'node',
  roots: ['<rootDir>/test/walkthrough'],
  testMatch: ['**/*.test.ts'],
  testTimeout: 300000,
  maxWorkers: 1,
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
};
