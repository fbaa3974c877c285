'use strict';
/** The line the service under test (gc-service.js) writes to stderr once a garbage collection asked for is done. */
const COLLECTED = 'load-test: garbage collected';

module.exports = { COLLECTED };
