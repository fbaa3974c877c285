'use strict';
// The calibration: bare node:http answering a fixed line (bench/servers/hello.js), driven by the load generator on
// the same cores, connections and sample length as every workload, at the start and at the end of a run. It moves
// with whatever moves the measurements (another process on either core, the CPU's clock, the kernel's loopback, the
// load generator itself), unlike a CPU loop, which sees only its own core. Its start figure is also the load
// generator's ceiling: the fastest rate it can show at all (bench/lib/quality.js, generatorVerdict). The same server
// is also measured in every round of every workload compared (bench/lib/pairs.js), against the start's figure
// (bench/lib/quality.js, hostDrift).
const { runLoad } = require('./measure');
const { startServer } = require('./servers');

/** The calibration's request, to bench/servers/hello.js (also measured in every workload's rounds, bench/lib/pairs.js). */
const CALIBRATION_REQUEST = Object.freeze({ method: 'GET', path: '/' });

/** The calibration's server, on the server's core (also started for every workload's rounds, bench/lib/pairs.js). */
const startCalibrationServer = (context) => startServer('hello', { seedFile: context.seedFile(100), cpu: context.cpus?.server });

/** Requests per second of each of `options.calibrationRounds` samples, after a warm-up. */
async function calibrate(options, context) {
  const server = await startCalibrationServer(context);
  try {
    const load = async (duration) => {
      const result = await runLoad({ url: server.url, request: CALIBRATION_REQUEST, connections: options.connections, duration, cpu: context.cpus?.load });
      if (result.non2xx || result.errors || result.timeouts) throw new Error(`the calibration server answered ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
      return result.rps;
    };
    await load(options.warmup);
    const samples = [];
    for (let i = 0; i < options.calibrationRounds; i += 1) samples.push(await load(options.duration));
    return samples;
  } finally {
    await server.stop();
  }
}

module.exports = { calibrate, startCalibrationServer, CALIBRATION_REQUEST };
