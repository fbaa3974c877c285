#!/usr/bin/env node
// `npm run dev`: the edit-spec -> regenerate -> implement loop, watched.
//   openapi.yaml / schema.graphql changed -> print what changed in the contract, `npm run generate`,
//   type-check + compile, restart the service.
//   src/ changed -> type-check + compile, restart the service.
// The type-check is the project's full one (src, generated, test); its errors are printed, and a
// contract that is only half implemented is reported by the service itself when it refuses to start.
// Compiled output goes to dist/dev (apart from dist/src, which `npm run build` and `npm test` use).
// The service's JSON log lines are shown through pino-pretty (a devDependency), one readable line each.
const { spawn, spawnSync } = require('node:child_process');
const { existsSync, readFileSync, watch } = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const outDir = path.join(root, 'dist', 'dev');
const SPECS = ['openapi.yaml', 'schema.graphql'];
const SPEC_KEYS = { 'openapi.yaml': 'openapi', 'schema.graphql': 'graphql' };
const DEBOUNCE_MS = 250;
const STOP_TIMEOUT_MS = 5000;

const COLOR = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code) => (text) => (COLOR ? `\x1b[${code}m${text}\x1b[0m` : text);
const [cyan, red, green, yellow] = [paint(36), paint(31), paint(32), paint(33)];
const say = (msg) => process.stdout.write(`${cyan('[dev]')} ${msg}\n`);

/** The breaking-change gate's classifier (scripts/contract-diff/gate.ts), from this loop's own compile. */
function loadGate() {
  try {
    return require(path.join(outDir, 'scripts', 'contract-diff', 'gate.js'));
  } catch (err) {
    return { error: String(err.message ?? err).split('\n')[0] };
  }
}

function readSpec(file) {
  try {
    return readFileSync(path.join(root, file), 'utf8');
  } catch {
    return undefined;
  }
}

/** The gate's classification of what changed since the last generate: BREAKING, DANGEROUS, SAFE. */
async function printContractDiff(gate, files, before, after) {
  const result = await gate.checkContracts(before, after); // throws one line when a spec does not parse
  say(`${files.join(' and ')} changed (classified by the contract gate against the last generate):`);
  const color = { BREAKING: red, DANGEROUS: yellow, SAFE: green };
  if (!result.changes.length) say('no change to operations, schemas, types or fields');
  for (const line of gate.formatReport(result)) {
    const level = line.split(' ')[0];
    process.stdout.write(`  ${color[level] ? color[level](line) : line}\n`);
  }
  if (result.failed) say(red('a breaking change is not announced: `npm run contract:diff` (and CI) will refuse it'));
}

function run(cmd, args) {
  return spawnSync(cmd, args, { cwd: root, encoding: 'utf8', env: process.env });
}

/** Full project type-check, emitting JS into outDir (incremental). Returns true when there were no errors. */
function typecheckAndCompile() {
  const tsc = path.join(root, 'node_modules', '.bin', 'tsc');
  const args = ['-p', 'tsconfig.json', '--outDir', outDir, '--incremental', '--tsBuildInfoFile', path.join(outDir, '.tsbuildinfo')];
  args.push('--pretty', String(Boolean(COLOR)));
  const started = Date.now();
  const result = run(tsc, args);
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim();
  if (result.status === 0) {
    say(`type-check ok (${Date.now() - started} ms)`);
    return true;
  }
  say(red('type errors:'));
  process.stdout.write(`${output}\n`);
  return false;
}

/** One pino-pretty process for as long as `npm run dev` runs (the service restarts, the printer stays); undefined when it is not installed. */
function prettyPrinter() {
  let bin;
  try {
    bin = require.resolve('pino-pretty/bin.js', { paths: [root] });
  } catch {
    return undefined;
  }
  const args = [bin, '--singleLine', '--translateTime', 'SYS:HH:MM:ss.l', ...(COLOR ? ['--colorize'] : [])];
  return spawn(process.execPath, args, { cwd: root, stdio: ['pipe', 'inherit', 'inherit'] });
}

function createService() {
  const pretty = prettyPrinter();
  let child;
  let stopping;
  let closed = false;
  const entry = path.join(outDir, 'src', 'server.js');
  const stop = () =>
    new Promise((resolve) => {
      if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
      const current = child;
      stopping = current;
      const force = setTimeout(() => current.kill('SIGKILL'), STOP_TIMEOUT_MS);
      // 'close', not 'exit': its last log lines may still be in the pipe to pino-pretty when it exits.
      current.once('close', () => {
        clearTimeout(force);
        resolve();
      });
      current.kill('SIGTERM');
    });
  const start = () => {
    if (closed) return;
    if (!existsSync(entry)) return say(`not starting: ${path.relative(root, entry)} was not built`);
    child = spawn(process.execPath, [entry], { cwd: root, stdio: ['inherit', pretty ? 'pipe' : 'inherit', 'inherit'], env: process.env });
    if (pretty) child.stdout.pipe(pretty.stdin, { end: false });
    const started = child;
    started.once('exit', (code, signal) => {
      if (started !== stopping && !signal) say(`service exited with code ${code}; waiting for changes`);
    });
  };
  const close = async () => {
    closed = true;
    await stop();
    if (pretty) {
      // Let it print what it still holds, then go.
      const done = new Promise((resolve) => pretty.once('exit', resolve));
      pretty.stdin.end();
      await done;
    }
  };
  return { stop, start, close };
}

function main() {
  const service = createService();
  // The spec texts last generated from: each save is classified against them.
  let contracts = Object.fromEntries(SPECS.map((f) => [SPEC_KEYS[f], readSpec(f)]));
  let pending = new Set();
  let timer;
  let busy = false;

  async function cycle(changed) {
    const specs = SPECS.filter((f) => changed.has(f));
    const sources = [...changed].filter((f) => !SPECS.includes(f));
    if (sources.length) say(`changed: ${sources.join(', ')}`);
    const next = Object.fromEntries(SPECS.map((f) => [SPEC_KEYS[f], readSpec(f)]));
    if (specs.length) {
      const gate = loadGate();
      if (gate.error) say(red(`cannot classify the contract change (${gate.error})`));
      else {
        try {
          await printContractDiff(gate, specs, contracts, next);
        } catch (err) {
          say(`${red(err.message)} (keeping the running service; fix and save again)`);
          return;
        }
      }
      say('regenerating generated/ (npm run generate)');
      const gen = run(process.execPath, [path.join(root, 'scripts', 'generate.js')]);
      if (gen.status !== 0) {
        say(`${red('generate failed:')}\n${gen.stdout}${gen.stderr}`);
        return;
      }
      contracts = next; // the next diff is against what was last generated
    }
    const clean = typecheckAndCompile();
    if (!clean) say('restarting anyway with the last compiled code; the service refuses to start if the contract is not implemented');
    await service.stop();
    say('starting the service');
    service.start();
  }

  async function flush() {
    if (busy) return;
    busy = true;
    while (pending.size) {
      const changed = pending;
      pending = new Set();
      await cycle(changed);
    }
    busy = false;
  }

  const queue = (file) => {
    pending.add(file);
    clearTimeout(timer);
    timer = setTimeout(flush, DEBOUNCE_MS);
  };
  // Editors often save by replacing the file, so watch the folder and filter by name.
  watch(root, (_event, name) => name && SPECS.includes(String(name)) && queue(String(name)));
  watch(path.join(root, 'src'), { recursive: true }, (_event, name) => {
    if (name && /\.(ts|js|html|css)$/.test(String(name))) queue(path.join('src', String(name)));
  });

  const quit = async () => {
    await service.close(); // also when a restart is in flight: it will not start the service again
    process.exit(0);
  };
  process.once('SIGINT', quit);
  process.once('SIGTERM', quit);

  say('watching openapi.yaml, schema.graphql and src/ (Ctrl-C to stop)');
  busy = true;
  Promise.resolve()
    .then(() => {
      typecheckAndCompile();
      return service.stop();
    })
    .then(() => {
      say('starting the service');
      service.start();
      busy = false;
      return flush();
    });
}

main();
