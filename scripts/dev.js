#!/usr/bin/env node
// `npm run dev`: the edit-spec -> regenerate -> implement loop, watched.
//   openapi.yaml / schema.graphql changed -> print what changed in the contract, `npm run generate`,
//   type-check + compile, restart the service.
//   src/ changed -> type-check + compile, restart the service.
// The type-check is the project's full one (src, generated, test); its errors are printed, and a
// contract that is only half implemented is reported by the service itself when it refuses to start.
// Compiled output goes to dist/dev (apart from dist/src, which `npm run build` and `npm test` use).
const { spawn, spawnSync } = require('node:child_process');
const { existsSync, readFileSync, watch } = require('node:fs');
const path = require('node:path');
const { parse } = require('yaml');
const { buildSchema, isObjectType, isInterfaceType, isInputObjectType, isEnumType } = require('graphql');

const root = path.resolve(__dirname, '..');
const outDir = path.join(root, 'dist', 'dev');
const SPECS = ['openapi.yaml', 'schema.graphql'];
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const DEBOUNCE_MS = 250;
const STOP_TIMEOUT_MS = 5000;

const COLOR = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code) => (text) => (COLOR ? `\x1b[${code}m${text}\x1b[0m` : text);
const [cyan, red, green] = [paint(36), paint(31), paint(32)];
const say = (msg) => process.stdout.write(`${cyan('[dev]')} ${msg}\n`);

/** The contract as a set of comparable lines: operations and schema properties; types and fields. */
function contractLines(file) {
  const text = readFileSync(path.join(root, file), 'utf8');
  const lines = new Set();
  if (file === 'openapi.yaml') {
    const doc = parse(text) ?? {};
    for (const [p, item] of Object.entries(doc.paths ?? {})) {
      for (const m of METHODS) {
        if (!item?.[m]) continue;
        const statuses = Object.keys(item[m].responses ?? {}).join(' ');
        lines.add(`operation ${m.toUpperCase()} ${p} (${item[m].operationId}) -> ${statuses}`);
      }
    }
    for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) {
      lines.add(`schema ${name}`);
      const required = new Set(schema?.required ?? []);
      for (const [prop, def] of Object.entries(schema?.properties ?? {})) {
        const type = def?.$ref ? def.$ref.split('/').pop() : [].concat(def?.type ?? 'any').join('|');
        lines.add(`schema ${name}.${prop}: ${type}${required.has(prop) ? ' (required)' : ''}`);
      }
    }
  } else {
    const schema = buildSchema(text);
    for (const type of Object.values(schema.getTypeMap())) {
      if (type.name.startsWith('__')) continue;
      lines.add(`type ${type.name}`);
      if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
        for (const field of Object.values(type.getFields())) {
          const args = (field.args ?? []).map((a) => `${a.name}: ${a.type}`).join(', ');
          lines.add(`field ${type.name}.${field.name}${args ? `(${args})` : ''}: ${field.type}`);
        }
      } else if (isEnumType(type)) {
        for (const value of type.getValues()) lines.add(`enum ${type.name}.${value.name}`);
      }
    }
  }
  return lines;
}

/** Reads a spec's contract lines, or reports why it cannot (e.g. a half-typed edit). */
function readContract(file) {
  try {
    return { lines: contractLines(file) };
  } catch (err) {
    return { error: String(err.message ?? err).split('\n')[0] };
  }
}

function printContractDiff(file, before, after) {
  const added = [...after].filter((l) => !before.has(l));
  const removed = [...before].filter((l) => !after.has(l));
  if (!added.length && !removed.length) return say(`${file}: no change to operations, types or fields (descriptions only?)`);
  say(`${file} changed:`);
  for (const l of removed) process.stdout.write(`  ${red(`- ${l}`)}\n`);
  for (const l of added) process.stdout.write(`  ${green(`+ ${l}`)}\n`);
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

function createService() {
  let child;
  let stopping;
  const entry = path.join(outDir, 'src', 'server.js');
  const stop = () =>
    new Promise((resolve) => {
      if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
      const current = child;
      stopping = current;
      const force = setTimeout(() => current.kill('SIGKILL'), STOP_TIMEOUT_MS);
      current.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
      current.kill('SIGTERM');
    });
  const start = () => {
    if (!existsSync(entry)) return say(`not starting: ${path.relative(root, entry)} was not built`);
    child = spawn(process.execPath, [entry], { cwd: root, stdio: 'inherit', env: process.env });
    const started = child;
    started.once('exit', (code, signal) => {
      if (started !== stopping && !signal) say(`service exited with code ${code}; waiting for changes`);
    });
  };
  return { stop, start };
}

function main() {
  const service = createService();
  const contracts = Object.fromEntries(SPECS.map((f) => [f, readContract(f).lines ?? new Set()]));
  let pending = new Set();
  let timer;
  let busy = false;

  async function cycle(changed) {
    const specs = SPECS.filter((f) => changed.has(f));
    const sources = [...changed].filter((f) => !SPECS.includes(f));
    if (sources.length) say(`changed: ${sources.join(', ')}`);
    const next = {};
    for (const file of specs) {
      const read = readContract(file);
      if (read.error) {
        say(`${red(`${file} does not parse: ${read.error}`)} (keeping the running service; fix and save again)`);
        return;
      }
      printContractDiff(file, contracts[file], read.lines);
      next[file] = read.lines;
    }
    if (specs.length) {
      say('regenerating generated/ (npm run generate)');
      const gen = run(process.execPath, [path.join(root, 'scripts', 'generate.js')]);
      if (gen.status !== 0) {
        say(`${red('generate failed:')}\n${gen.stdout}${gen.stderr}`);
        return;
      }
      Object.assign(contracts, next); // the next diff is against what was last generated
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
    await service.stop();
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
