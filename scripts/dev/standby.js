// The next service process of the dev loop, started ahead of time: it loads the packages the service
// loaded last time (their code does not change between saves, the service's does), then waits. On
// `start` from scripts/dev.js it runs the service's entry, fresh from the dev output folder, so a
// restart does not pay for loading express, graphql, ajv and the rest again.
// When it exits it records the packages the service's own modules required, for the next one.
const { mkdirSync, readFileSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const path = require('node:path');

const [entry, preloadFile] = process.argv.slice(2);
const NODE_MODULES = `${path.sep}node_modules${path.sep}`;

function preload() {
  let modules = [];
  try {
    modules = JSON.parse(readFileSync(preloadFile, 'utf8'));
  } catch {
    return; // the first run: nothing recorded yet
  }
  for (const file of modules) {
    try {
      require(file);
    } catch {
      // gone or broken since it was recorded: the service will say so when it loads it
    }
  }
}

/** The packages' entry files that the service's own modules required, in the order they came. */
function record() {
  const seen = new Set();
  for (const mod of Object.values(Module._cache)) {
    if (!mod || mod.filename.includes(NODE_MODULES)) continue;
    for (const child of mod.children) if (child.filename.includes(NODE_MODULES)) seen.add(child.filename);
  }
  if (!seen.size) return;
  try {
    mkdirSync(path.dirname(preloadFile), { recursive: true });
    writeFileSync(preloadFile, JSON.stringify([...seen]));
  } catch {
    // only a cache
  }
}

/**
 * Runs the parser the service starts with on today's spec once, so its code is compiled by V8 before the
 * service needs it (the text is parsed again then: it may change before `start`).
 */
function warmUp() {
  try {
    const yaml = require(require.resolve('yaml', { paths: [path.dirname(entry)] }));
    yaml.parse(readFileSync(path.join(process.cwd(), 'openapi.yaml'), 'utf8'));
  } catch {
    // only a head start
  }
}

function start() {
  process.removeListener('message', onMessage);
  process.disconnect(); // the service has no IPC channel of its own
  // The service sees itself as the program (node:cluster forks workers with process.argv[1]).
  process.argv.splice(1, process.argv.length - 1, entry);
  process.on('exit', record);
  require(entry);
}

function onMessage(message) {
  if (message === 'start') start();
}

preload();
warmUp();
process.on('message', onMessage);
process.send('ready');
