// Preloaded into the built service by tests that need a signal to arrive at a known step of its
// start-up: `node --require test/support/hold-start.js dist/src/server.js` (test/server.test.ts).
// Each step below, once called, writes `held: <step>` to stderr and blocks the whole process
// (synchronously: the event loop gets no turn) until a byte arrives on stdin; the test sends its
// signal while a step holds, then lets start-up go on. The service itself has no such hook.
const fs = require('node:fs');
const path = require('node:path');

const dist = path.join(__dirname, '..', '..', 'dist', 'src');
/** The start-up steps that can be held: [module under dist/src, exported function]. */
const STEPS = [
  ['config.js', 'loadConfig'], // before the service says `starting` and loads the rest
  ['store/index.js', 'createStore'],
  ['app.js', 'createApp'],
  ['http/http-server.js', 'createHttpServer'],
];

function hold(step) {
  fs.writeSync(2, `held: ${step}\n`);
  const byte = Buffer.alloc(1);
  for (;;) {
    try {
      // One byte goes on; end of input (the test is gone) goes on too.
      fs.readSync(0, byte, 0, 1, null);
      return;
    } catch (err) {
      // A non-blocking stdin has nothing yet; a signal may interrupt the read.
      if (err.code !== 'EAGAIN' && err.code !== 'EINTR') throw err;
    }
  }
}

// Each step holds after the real function has run (or, for an async one, started): still inside its call.
for (const [file, name] of STEPS) {
  const exported = require(path.join(dist, file));
  const real = exported[name];
  exported[name] = function held(...args) {
    const result = real.apply(this, args);
    hold(name);
    return result;
  };
}
