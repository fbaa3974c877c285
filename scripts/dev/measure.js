#!/usr/bin/env node
// Times `npm run dev` from a save to the service serving it: `node scripts/dev/measure.js [saves]` (5 by
// default). It runs scripts/dev.js on a free port, then saves, in place and by rename-over (a new file renamed
// over the old one), src/rest/greetings.ts (polling GET /greet/fr for the new greeting) and openapi.yaml (a
// description, polling GET /openapi.json), and adds a type error to src/rest/greetings.ts (waiting for the
// type-checker's line naming it). Prints the median and every time. The two files are put back at the end.
// It edits the working tree: run it on a clean one, and let it finish.
const { spawn } = require('node:child_process');
const { readFileSync, renameSync, writeFileSync } = require('node:fs');
const { createServer } = require('node:net');
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..');
const saves = Number(process.argv[2] ?? 5);
const GREETINGS = path.join(root, 'src', 'rest', 'greetings.ts');
const SPEC = path.join(root, 'openapi.yaml');
const PAUSE_MS = 2000;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (times) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)];

function freePort() {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function save(file, text, how) {
  if (how === 'in place') return writeFileSync(file, text);
  writeFileSync(`${file}.measure-tmp`, text);
  renameSync(`${file}.measure-tmp`, file);
}

async function main() {
  const port = await freePort();
  let output = '';
  const dev = spawn(process.execPath, [path.join(root, 'scripts', 'dev.js')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  dev.stdout.on('data', (chunk) => (output += chunk));
  dev.stderr.on('data', (chunk) => (output += chunk));
  const get = async (pathname) => {
    try {
      return await (await fetch(`http://127.0.0.1:${port}${pathname}`)).text();
    } catch {
      return undefined;
    }
  };
  const until = async (check) => {
    const started = Date.now();
    while (Date.now() - started < 60000) {
      if (await check()) return Date.now() - started;
      await sleep(15);
    }
    throw new Error(`timed out; npm run dev printed:\n${output.slice(-3000)}`);
  };

  const greetings = readFileSync(GREETINGS, 'utf8');
  const spec = readFileSync(SPEC, 'utf8');
  const results = {};
  try {
    await until(async () => (await get('/greet/fr')) !== undefined);
    await until(() => /\[types\] (ok|\d+ type error)/.test(output));
    for (const how of ['in place', 'rename-over']) {
      for (const [name, file, edit, pathname] of [
        ['src/rest/greetings.ts', GREETINGS, (mark) => greetings.replace("fr: 'Bonjour'", `fr: '${mark}'`), '/greet/fr'],
        ['openapi.yaml', SPEC, (mark) => spec.replace('Looks up a greeting in the built-in table', `Looks up a greeting (${mark}) in the built-in table`), '/openapi.json'],
      ]) {
        const times = (results[`${name}, ${how}`] = []);
        for (let i = 0; i < saves; i++) {
          await sleep(PAUSE_MS);
          const mark = `measure ${how} ${i}`;
          const started = Date.now();
          save(file, edit(mark), how);
          await until(async () => (await get(pathname))?.includes(mark));
          times.push(Date.now() - started);
        }
      }
    }
    const times = (results['type error reported'] = []);
    for (let i = 0; i < Math.min(saves, 3); i++) {
      await sleep(PAUSE_MS);
      const from = output.length;
      const started = Date.now();
      save(GREETINGS, `${greetings}\nexport const measureTypeError${i}: number = 'x';\n`, 'in place');
      await until(() => /greetings\.ts:\d+:\d+ error TS/.test(output.slice(from)));
      times.push(Date.now() - started);
      save(GREETINGS, greetings, 'in place');
    }
  } finally {
    writeFileSync(GREETINGS, greetings);
    writeFileSync(SPEC, spec);
    await sleep(PAUSE_MS);
    dev.kill('SIGINT');
  }
  for (const [what, times] of Object.entries(results)) {
    process.stdout.write(`${what.padEnd(34)} median ${String(median(times)).padStart(5)} ms   [${times.join(', ')}]\n`);
  }
}

main().catch((err) => {
  process.stderr.write(`${err.message}\n`);
  process.exit(1);
});
