/**
 * docs/changing-the-contract.md's worked examples on copies of the project (`npm run test:walkthrough`): adding a
 * field, making it required without then with a default, adding an operation with `npm run dev` running. They
 * generate, type-check and build the copies, so they run on their own, once in CI (on SQLite and PostgreSQL).
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
