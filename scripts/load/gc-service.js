'use strict';
// The service as the load test runs it: dist/src/server.js in this process (started with --expose-gc), plus a full
// garbage collection on SIGUSR2 that says when it is done (one line on stderr). The load test then reads the memory
// the service still holds when it chooses to, instead of waiting for V8 to collect at its own pace (which depends on
// how busy the machine is). Test tooling only: the service itself never collects by hand.
const path = require('node:path');
const { COLLECTED } = require('./collected');

process.on('SIGUSR2', () => {
  // Twice, a turn apart: what the first collection's finalizers release (Buffers' memory) goes in the second.
  global.gc();
  setImmediate(() => {
    global.gc();
    process.stderr.write(`${COLLECTED}\n`);
  });
});
require(path.join(__dirname, '..', '..', 'dist', 'src', 'server.js'));
