#!/usr/bin/env node
// `npm run dev`: the edit-spec -> regenerate -> implement loop, watched (@parcel/watcher: saves in place,
// saves that rename a new file over the old one, new and deleted files).
//   openapi.yaml / schema.graphql saved -> check them as `npm run generate` does (lint, the contract checks);
//     refused, say why and keep the running service; else regenerate generated/ (scripts/codegen.js, loaded
//     once), compile what changed, restart the service, print what changed in the contract (the gate).
//   src/ saved -> compile the saved files, restart the service.
//   seed/ saved -> restart the service.
// Compiling is per file, in this process (scripts/dev/transpile.js), into dist/dev (apart from dist/src,
// which `npm run build` and `npm test` use); the restart does not wait for types. A file that does not
// parse is reported with its line and the service keeps running the last good build. The type-checker
// (scripts/dev/typecheck.js) runs beside it, warm, and prints type errors with file and line; a type error
// never stops a restart.
// The next service process is started ahead of time with its packages loaded (scripts/dev/standby.js).
// The service runs with MOCK_UNIMPLEMENTED=true and VALIDATE_RESPONSES=true unless they are set: operations
// without a handler answer mocks, and an answer that breaks openapi.yaml is a 500 naming the field.
// Its JSON log lines are shown through pino-pretty (a devDependency), one readable line each.
const { fork, spawn } = require('node:child_process');
const { existsSync, readdirSync, readFileSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const watcher = require('@parcel/watcher');
const { createCodegen } = require('./codegen');
const { createTranspiler, isTypeScript } = require('./dev/transpile');
const { SpecRefusal } = require('./spec-refusals');

const root = path.resolve(__dirname, '..');
const outDir = path.join(root, 'dist', 'dev');
const entry = path.join(outDir, 'src', 'server.js');
const SPECS = { 'openapi.yaml': 'openapi', 'schema.graphql': 'graphql' };
/** Compiled into outDir: the service, its generated types, and the contract gate this loop prints with. */
const COMPILED = ['src', 'generated', path.join('scripts', 'contract-diff')];
/** Not the service's: never watched. */
const IGNORED = ['node_modules', 'dist', '.git', 'data', 'coverage', 'artifacts', 'bench', '.cache'];
/** Files under src/ other than TypeScript that the service reads at start (pages and scripts of the docs, JSON). */
const SERVED = /\.(html|css|js|json)$/;
/** A save arrives as a few events; they are taken together. */
const SETTLE_MS = 20;
const STOP_TIMEOUT_MS = 5000;

const COLOR = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code) => (text) => (COLOR ? `\x1b[${code}m${text}\x1b[0m` : text);
const [cyan, red, green, yellow] = [paint(36), paint(31), paint(32), paint(33)];
/**
 * A message and its indented lines, in one write: the type-checker, which prints to the same terminal, cannot print
 * between them.
 */
const say = (msg, lines = []) => process.stdout.write(`${cyan('[dev]')} ${msg}\n${lines.map((line) => `  ${line}\n`).join('')}`);
const rel = (file) => path.relative(root, file);

const readText = (file) => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
};

/** Every file under a folder (none when it does not exist). */
function listFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath ?? entry.path, entry.name));
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

/**
 * The service: one process at a time, plus the next one waiting with its packages loaded. `restart()`
 * stops the running one and starts the waiting one on the current dev output.
 */
function createService() {
  const pretty = prettyPrinter();
  const env = { ...process.env, MOCK_UNIMPLEMENTED: process.env.MOCK_UNIMPLEMENTED ?? 'true', VALIDATE_RESPONSES: process.env.VALIDATE_RESPONSES ?? 'true' };
  const preloadFile = path.join(outDir, 'standby-preload.json');
  let child;
  let next;
  let closed = false;
  let first = true;

  /** A process that loads the packages and waits for `start` (resolves once it is ready). */
  function spawnNext() {
    const proc = spawn(process.execPath, [path.join(__dirname, 'dev', 'standby.js'), entry, preloadFile], {
      cwd: root,
      env,
      stdio: ['ignore', pretty ? 'pipe' : 'inherit', 'inherit', 'ipc'],
    });
    const ready = new Promise((resolve) => {
      proc.once('message', () => resolve(true));
      proc.once('exit', () => resolve(false));
    });
    proc.once('exit', () => {
      if (next?.proc === proc) next = undefined;
    });
    return { proc, ready };
  }

  const stop = () =>
    new Promise((resolve) => {
      const current = child;
      if (!current || current.exitCode !== null || current.signalCode !== null) return resolve();
      current.stopping = true;
      const force = setTimeout(() => current.kill('SIGKILL'), STOP_TIMEOUT_MS);
      // 'close', not 'exit': its last log lines may still be in the pipe to pino-pretty when it exits.
      current.once('close', () => {
        clearTimeout(force);
        resolve();
      });
      current.kill('SIGTERM');
    });

  /** Starts the service; `since` is when the change it serves was seen (for the time printed when it listens). */
  async function start(since) {
    if (closed) return;
    if (!existsSync(entry)) return say(`not starting: ${rel(entry)} was not built`);
    const waiting = next ?? spawnNext();
    next = undefined;
    const proc = waiting.proc;
    child = proc;
    let listening = false;
    let seen = '';
    if (pretty) {
      proc.stdout.pipe(pretty.stdin, { end: false });
      proc.stdout.on('data', (chunk) => {
        if (listening) return;
        seen = (seen + chunk).slice(-4096);
        if (!/"msg":"listening"/.test(seen)) return;
        listening = true;
        if (since) say(green(`serving, ${Date.now() - since} ms after ${first ? 'npm run dev started' : 'the change'}`));
        first = false;
        if (!closed && child === proc) next = spawnNext(); // loads while nothing else is going on
      });
    }
    proc.once('exit', (code, signal) => {
      if (!proc.stopping && !signal) say(`service exited with code ${code}; waiting for changes`);
    });
    if (!(await waiting.ready)) return closed || say(red('the service process could not start'));
    if (closed || child !== proc || proc.stopping) return;
    proc.send('start');
    if (!pretty) next = spawnNext();
  }

  async function restart(since) {
    await stop();
    await start(since);
  }

  const close = async () => {
    closed = true;
    next?.proc.kill('SIGKILL');
    await stop();
    if (pretty) {
      // Let it print what it still holds, then go.
      const done = new Promise((resolve) => pretty.once('exit', resolve));
      pretty.stdin.end();
      await done;
    }
  };
  /** On the way out, whatever happened: no process of the service left behind. */
  const kill = () => {
    next?.proc.kill('SIGKILL');
    if (child && child.exitCode === null) child.kill('SIGKILL');
  };
  return { start, restart, close, kill };
}

/**
 * A type-checker child (`saved` or `all`, scripts/dev/typecheck.js); `send` hands it a message (what the watcher
 * saw, `{ events, at, seq }`); `onMessage` hears what it says.
 */
function createTypeChecker(mode, onMessage = () => undefined) {
  const child = fork(path.join(__dirname, 'dev', 'typecheck.js'), [root, outDir, mode], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, DEV_COLOR: COLOR ? '1' : '0' },
  });
  // The whole project's check below the service in the scheduler's eyes: a restart comes first.
  try {
    if (mode === 'all') os.setPriority(child.pid, 5);
  } catch {
    // not allowed here: same priority then
  }
  child.on('message', onMessage);
  child.on('exit', (code, signal) => {
    if (!child.closing) say(red(`the type-checker stopped (${signal ?? `exit code ${code}`}); restart npm run dev to get type errors again`));
    onMessage({ gone: true });
  });
  return {
    send: (message) => child.connected && child.send(message),
    close: () => {
      child.closing = true;
      child.kill();
    },
  };
}

/** The breaking-change gate's classifier (scripts/contract-diff/gate.ts), from this loop's own compile. */
function loadGate() {
  try {
    return require(path.join(outDir, 'scripts', 'contract-diff', 'gate.js'));
  } catch (err) {
    return { error: String(err.message ?? err).split('\n')[0] };
  }
}

/** The gate's classification of what changed since the last generate: BREAKING, DANGEROUS, SAFE. */
async function printContractDiff(gate, files, before, after) {
  const result = await gate.checkContracts(before, after);
  const color = { BREAKING: red, DANGEROUS: yellow, SAFE: green };
  const lines = gate.formatReport(result).map((line) => (color[line.split(' ')[0]] ?? String)(line));
  say(`${files.join(' and ')} changed (classified by the contract gate against the last generate):`, lines);
  if (!result.changes.length) say('no change to operations, schemas, types or fields');
  if (result.failed) say(red('a breaking change is not announced: `npm run contract:diff` (and CI) will refuse it'));
}

/** The service's modules from this loop's compiled output, loaded afresh (a save under src/ may have changed them). */
function loadCompiled(names) {
  for (const dir of ['src', 'generated']) {
    const prefix = path.join(outDir, dir) + path.sep;
    for (const file of Object.keys(require.cache)) if (file.startsWith(prefix)) delete require.cache[file];
  }
  return names.map((name) => require(path.join(outDir, name)));
}

/** A refusal to use the specs (scripts/spec-refusals.js), printed as `npm run generate` prints it. */
function reportRefusal(refusal) {
  say(red(refusal.title), refusal.lines.map(red));
  say('keeping the running service on the last specs it could use; fix and save again');
}

async function main() {
  const transpiler = createTranspiler(root, outDir);
  const codegen = createCodegen(root, { loadSources: loadCompiled });
  /** Each compiled file's text when last compiled: a save that changed nothing is not a restart. */
  const compiled = new Map();
  /** Files that do not parse: while there is one, the service keeps its last good build. */
  const broken = new Map();
  /** The spec texts last generated from: each save is classified against them. */
  let contracts = Object.fromEntries(Object.entries(SPECS).map(([file, key]) => [key, readText(path.join(root, file))]));
  /**
   * Why the specs on disk cannot be used (they do not parse, are gone, or are refused as `npm run generate` refuses
   * them), as a SpecRefusal; while set, no save restarts the service, which keeps the last specs it could use.
   */
  let refused;
  /** Saves compiled while the specs were refused: the restart waits for the specs. */
  let held = [];

  /**
   * The specs as they are on disk, when a spec file was saved: each that differs from the last generate, or the
   * refusal (parse errors, then `codegen.check()`: lint and the contract checks). Both files are looked at, so a
   * save of one does not pass over the other's refusal.
   */
  async function readSpecs() {
    const specs = [];
    const next = { ...contracts };
    for (const [file, key] of Object.entries(SPECS)) {
      const text = readText(path.join(root, file));
      if (text === undefined) return { refusal: new SpecRefusal(`${file} is gone: put it back`, []) };
      if (text === contracts[key]) continue;
      try {
        gate ??= loadGate();
        if (!gate.error) gate[key === 'openapi' ? 'parseOpenApi' : 'parseGraphql'](text); // throws one line naming the file
      } catch (err) {
        return { refusal: new SpecRefusal(err.message, []) };
      }
      specs.push(file);
      next[key] = text;
    }
    if (!specs.length) return { specs, next };
    try {
      await codegen.check();
    } catch (err) {
      if (err instanceof SpecRefusal) return { refusal: err };
      return { refusal: new SpecRefusal(`cannot check the specs: ${String(err.message ?? err).split('\n')[0]}`, []) };
    }
    return { specs, next };
  }

  /** Compiles a source that exists; removes the output of one that does not. True when the service's code changed. */
  function build(file) {
    const text = readText(file);
    if (text === undefined) {
      const had = compiled.delete(file) || broken.delete(file);
      transpiler.remove(file);
      return had;
    }
    if (compiled.get(file) === text && !broken.has(file)) return false;
    const result = transpiler.compile(file);
    if (result.errors) {
      broken.set(file, result.errors);
      return false;
    }
    broken.delete(file);
    compiled.set(file, text);
    return result.changed;
  }

  function reportBroken() {
    say(red(`does not compile; the service keeps running the last good build:`), [...broken.values()].flat().map(red));
  }

  // The first build: every source whose output is missing or older, and no output left of a deleted source.
  const started = Date.now();
  let count = 0;
  for (const dir of COMPILED) {
    const sources = listFiles(path.join(root, dir)).filter(isTypeScript);
    for (const file of sources) {
      if (transpiler.isStale(file)) {
        count++;
        build(file);
      } else compiled.set(file, readText(file));
    }
    const expected = new Set(sources.map((file) => transpiler.outputOf(file)));
    for (const out of listFiles(path.join(outDir, dir)).filter((f) => f.endsWith('.js'))) {
      if (!expected.has(out)) transpiler.remove(path.join(root, path.relative(outDir, out)).replace(/\.js$/, '.ts'));
    }
  }
  say(`compiled ${count} file${count === 1 ? '' : 's'} into ${rel(outDir)} (${Date.now() - started} ms)`);
  if (broken.size) reportBroken();

  const service = createService();
  // The whole project's line refers to the saved files' errors "above": the `saved` checker tells when it has
  // printed them (the changes it has shown, by number), and the `all` checker prints its line after that.
  const all = createTypeChecker('all');
  const checkers = [createTypeChecker('saved', (message) => all.send(message.gone ? { shown: Number.MAX_SAFE_INTEGER } : message)), all];
  let changes = 0;
  const types = {
    changed: (events, at) => {
      changes += 1;
      checkers.forEach((checker) => checker.send({ events, at, seq: changes }));
    },
    close: () => checkers.forEach((checker) => checker.close()),
  };
  process.on('exit', () => {
    service.kill();
    types.close();
  });
  let gate;

  async function cycle(changes) {
    const since = Math.min(...changes.values());
    const files = [...changes.keys()];
    // Specs: a text that parses and passes the checks `npm run generate` makes restarts the service at once (it
    // reads the specs when it starts) while generated/ is regenerated beside it; generated code holds types only,
    // so a second restart is rare. Refused, they leave the running service alone until a save fixes them.
    let specs = [];
    let next = contracts;
    if (files.some((f) => SPECS[rel(f)])) {
      const read = await readSpecs();
      refused = read.refusal;
      if (refused) reportRefusal(refused);
      else ({ specs, next } = read);
    }

    const changed = [];
    for (const file of files.filter((f) => !SPECS[rel(f)])) {
      const name = rel(file);
      if (name.startsWith(`seed${path.sep}`) || (isTypeScript(file) ? build(file) : SERVED.test(file))) changed.push(name);
    }

    let restarted = Promise.resolve();
    if (broken.size) reportBroken();
    else if (refused && changed.length) {
      say(red(`not restarting for ${changed.join(', ')}: the specs are refused (above); the service keeps running`));
      held.push(...changed);
    } else if (!refused && (specs.length || changed.length || held.length)) {
      say(`changed: ${[...new Set([...specs, ...held, ...changed])].join(', ')}; restarting`);
      held = [];
      restarted = service.restart(since);
    }
    if (!specs.length) return restarted;

    let again = false;
    let generated = true;
    for (const file of specs) {
      const key = SPECS[file];
      try {
        for (const out of await codegen[key]()) again = build(path.join(root, out)) || again;
      } catch (err) {
        say(red(`generating from ${file} failed, generated/ is out of date: ${String(err.message ?? err).split('\n')[0]}`));
        next[key] = contracts[key]; // still to be classified at the next save
        generated = false;
      }
    }
    await restarted;
    if (again && !broken.size) {
      say('generated/ changed the service\'s code; restarting');
      await service.restart(since);
    }
    const before = contracts;
    contracts = next; // the next diff is against what was last generated
    if (!generated) return; // nothing to classify: the change is classified once it generates
    if (gate.error) say(red(`cannot classify the contract change (${gate.error})`));
    else await printContractDiff(gate, specs, before, next).catch((err) => say(red(`cannot classify the contract change (${err.message})`)));
  }

  // Changes wait here while a cycle runs; each path keeps the time it was first seen.
  let pending = new Map();
  let timer;
  let busy = false;
  async function flush() {
    if (busy) return;
    busy = true;
    while (pending.size) {
      const changes = pending;
      pending = new Map();
      try {
        await cycle(changes);
      } catch (err) {
        say(red(`error: ${err.stack ?? err}`));
      }
    }
    busy = false;
  }

  const isWatched = (name) =>
    SPECS[name] || name.startsWith(`seed${path.sep}`) || name.startsWith(`src${path.sep}`) || name.startsWith(`generated${path.sep}`);
  const subscription = await watcher.subscribe(
    root,
    (err, events) => {
      if (err) return say(red(`watcher: ${err.message}`));
      const at = Date.now();
      types.changed(events, at);
      for (const event of events) {
        if (!isWatched(rel(event.path))) continue;
        if (!pending.has(event.path)) pending.set(event.path, at);
      }
      if (!pending.size) return;
      clearTimeout(timer);
      timer = setTimeout(flush, SETTLE_MS);
    },
    { ignore: IGNORED },
  );

  let quitting = false;
  const quit = async () => {
    if (quitting) return;
    quitting = true;
    await subscription.unsubscribe();
    types.close();
    await service.close(); // also when a restart is in flight: it will not start the service again
    process.exit(0);
  };
  process.once('SIGINT', quit);
  process.once('SIGTERM', quit);

  say('watching openapi.yaml, schema.graphql, src/ and seed/ (Ctrl-C to stop)');
  await service.start(started);
  gate ??= loadGate(); // loaded now, not at the first spec save
  // The specs it started on, checked as a save would be (this loads the checks now, not at the first save).
  await codegen.check().catch((err) => {
    if (!(err instanceof SpecRefusal)) return say(red(`cannot check the specs: ${String(err.message ?? err).split('\n')[0]}`));
    say(red(`the service started on specs npm run generate refuses: ${err.title}`), err.lines.map(red));
  });
}

main().catch((err) => {
  say(red(`failed: ${err.stack ?? err}`));
  process.exit(1);
});
