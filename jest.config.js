/** @type {import('jest').Config} */
module.exports = {
  preset: 'ts-jest',
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // Real-browser tests need chromium: they run separately, with `npm run test:browser` (jest.browser.config.js).
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/browser/'],
  testTimeout: 30000,
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
};
