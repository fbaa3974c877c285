/** @type {import('jest').Config} */
module.exports = {
  preset: 'ts-jest',
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // Real-browser tests need chromium: they run separately, with `npm run test:browser` (jest.browser.config.js); the
  // worked example of docs/changing-the-contract.md builds a copy of the project: `npm run test:walkthrough`.
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/browser/', '<rootDir>/test/walkthrough/'],
  testTimeout: 30000,
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
};
