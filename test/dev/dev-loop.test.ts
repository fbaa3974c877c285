import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, projectRoot } from '../support/server-process';

// `npm run dev` (scripts/dev.js) on a copy of the project: every kind of save is seen and served, a type
// error is reported with its file and line without stopping the restart, and a file that does not parse
// leaves the last good build serving. Saves are made the two ways editors make them: writing the file in
// place, and writing a new file then renaming it over the old one (vim, JetBrains' safe write, sed -i).
// Times are printed, not asserted: the machine running the tests may be busy.

const COPIED = ['openapi.yaml', 'schema.graphql', 'package.json', 'tsconfig.json', 'codegen.ts', 'redocly.yaml', 'src', 'generated', 'seed', 'scripts'];
const WAIT_MS = 60000;

let dir: string;
let dev: ChildProcess;
let output = '';
let port: number;
const timings: string[] = [];

const file = (name: string) => path.join(dir, name);
const read = (name: string) => readFileSync(file(name), 'utf8');

/** Saves `text` to `name` in place, or by writing a new file and renaming it over the old one. */
function save(name: string, text: string, how: 'in place' | 'rename-over' = 'in place'): void {
  if (how === 'in place') return writeFileSync(file(name), text);
  const temporary = `${file(name)}.tmp-save`;
  writeFileSync(temporary, text);
  renameSync(temporary, file(name));
}

async function get(pathname: string): Promise<{ status: number; text: string } | undefined> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}${pathname}`);
    return { status: res.status, text: await res.text() };
  } catch {
    return undefined; // restarting
  }
}

/** Polls until `check` holds; fails with what dev printed when it does not within WAIT_MS. Resolves to the time taken. */
async function until(what: string, check: () => boolean | Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < WAIT_MS) {
    if (await check()) {
      timings.push(`${what}: ${Date.now() - started} ms`);
      return Date.now() - started;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`not seen within ${WAIT_MS} ms: ${what}\n--- npm run dev printed:\n${output.slice(-4000)}`);
}

const greeting = async () => {
  const res = await get('/greet/fr');
  return res?.status === 200 ? (JSON.parse(res.text) as { greeting: string }).greeting : undefined;
};
const served = (expected: string) => async () => (await greeting()) === expected;
const withGreeting = (source: string, fr: string) => source.replace(/fr: '[^']*'/, `fr: '${fr}'`);

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'dev-loop-'));
  for (const name of COPIED) cpSync(path.join(projectRoot, name), file(name), { recursive: true });
  symlinkSync(path.join(projectRoot, 'node_modules'), file('node_modules'), 'dir');
  port = await freePort();
  const { MOCK_UNIMPLEMENTED: _unset, ...env } = process.env;
  dev = spawn(process.execPath, [file('scripts/dev.js')], {
    cwd: dir,
    env: { ...env, PORT: String(port), STORE: 'memory', LOG_LEVEL: 'info', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  dev.stdout!.on('data', (chunk) => (output += chunk));
  dev.stderr!.on('data', (chunk) => (output += chunk));
  await until('first start', served('Bonjour'));
}, 2 * WAIT_MS);

afterAll(async () => {
  if (dev && dev.exitCode === null) {
    let timer: NodeJS.Timeout | undefined;
    const exited = new Promise((resolve) => dev.once('exit', resolve));
    dev.kill('SIGINT');
    await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, 10000)))]);
    clearTimeout(timer);
    dev.kill('SIGKILL');
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
  process.stdout.write(`npm run dev, change to served:\n  ${timings.join('\n  ')}\n`);
});

describe('npm run dev', () => {
  it('runs the service with MOCK_UNIMPLEMENTED=true when it is not set', () => {
    const pids = [...output.matchAll(/\((\d+)\): starting/g)].map((match) => match[1]);
    expect(pids.length).toBeGreaterThan(0);
    const environ = `/proc/${pids[pids.length - 1]}/environ`;
    if (!existsSync(environ)) return; // no /proc here: not checked
    expect(readFileSync(environ, 'utf8').split('\0')).toContain('MOCK_UNIMPLEMENTED=true');
  });

  it('serves a save under src/ made in place, then one made by rename-over, then another in place', async () => {
    const source = read('src/rest/greetings.ts');
    save('src/rest/greetings.ts', withGreeting(source, 'Bonjour 1'));
    await until('src/ saved in place', served('Bonjour 1'));
    save('src/rest/greetings.ts', withGreeting(source, 'Bonjour 2'), 'rename-over');
    await until('src/ saved by rename-over', served('Bonjour 2'));
    // The file was replaced: the save after it must still be seen.
    save('src/rest/greetings.ts', withGreeting(source, 'Bonjour 3'));
    await until('src/ saved in place after a rename-over', served('Bonjour 3'));
  }, 4 * WAIT_MS);

  it('regenerates and serves saves of openapi.yaml, in place and by rename-over, and prints the contract change', async () => {
    const spec = read('openapi.yaml');
    const marked = (mark: string) => spec.replace('Looks up a greeting in the built-in table', `Looks up a greeting (${mark}) in the built-in table`);
    const generatedBefore = read('generated/openapi.ts');
    for (const [mark, how] of [['mark-1', 'rename-over'], ['mark-2', 'in place']] as const) {
      save('openapi.yaml', marked(mark), how);
      await until(`openapi.yaml saved ${how}`, async () => (await get('/openapi.json'))?.text.includes(mark) ?? false);
      await until(`generated/openapi.ts regenerated (${how})`, () => read('generated/openapi.ts').includes(mark));
    }
    expect(generatedBefore).not.toContain('mark-');
    await until('the contract change printed', () => /openapi\.yaml changed \(classified by the contract gate/.test(output));
  }, 4 * WAIT_MS);

  it('regenerates and serves a save of schema.graphql', async () => {
    const sdl = read('schema.graphql');
    const marked = sdl.replace('Page count; 0 when unknown.', 'Page count; 0 when unknown (dev-loop-mark).');
    expect(marked).not.toBe(sdl);
    save('schema.graphql', marked, 'rename-over');
    await until('schema.graphql saved by rename-over', async () => (await get('/schema.graphql'))?.text.includes('dev-loop-mark') ?? false);
    await until('generated/graphql.ts regenerated', () => read('generated/graphql.ts').includes('dev-loop-mark'));
  }, 2 * WAIT_MS);

  it('sees a new file and a deleted one', async () => {
    const source = read('src/rest/greetings.ts');
    save('src/rest/farewells.ts', "export const FR_GREETING = 'Salut';\n");
    save('src/rest/greetings.ts', `import { FR_GREETING } from './farewells';\n${source.replace(/fr: '[^']*'/, 'fr: FR_GREETING')}`);
    await until('a new file served', served('Salut'));
    save('src/rest/greetings.ts', withGreeting(source, 'Bonjour 4'));
    unlinkSync(file('src/rest/farewells.ts'));
    await until('a deleted file: its output removed', () => !existsSync(file('dist/dev/src/rest/farewells.js')));
    await until('served after the delete', served('Bonjour 4'));
  }, 3 * WAIT_MS);

  it('restarts on a seed change', async () => {
    const seed = read('seed/default.json');
    expect(seed).toContain('"The Hobbit"');
    save('seed/default.json', seed.replace('"The Hobbit"', '"The Hobbit, seeded again"'), 'rename-over');
    await until('seed/ saved', async () => (await get('/books/1'))?.text.includes('seeded again') ?? false);
  }, 2 * WAIT_MS);

  it('reports a type error with its file and line, and restarts anyway', async () => {
    const source = read('src/rest/greetings.ts');
    const from = output.length;
    save('src/rest/greetings.ts', `${withGreeting(source, 'Bonjour 5')}\nexport const notANumber: number = 'five';\n`);
    await until('served with a type error', served('Bonjour 5'));
    const line = source.split('\n').length + 1;
    await until('the type error reported', () => new RegExp(`src/rest/greetings\\.ts:${line}:\\d+ error TS2322`).test(output.slice(from)));
    save('src/rest/greetings.ts', withGreeting(source, 'Bonjour 6'));
    await until('served once fixed', served('Bonjour 6'));
  }, 3 * WAIT_MS);

  it('keeps the last good build serving while a file does not parse, and says where', async () => {
    const source = read('src/rest/greetings.ts');
    const from = output.length;
    save('src/rest/greetings.ts', withGreeting(source, 'Bonjour 7').replace('export function findGreeting(', 'export function findGreeting(('), 'rename-over');
    await until('the syntax error reported', () => /does not compile.*\n\s+src\/rest\/greetings\.ts:\d+:\d+ /.test(output.slice(from)));
    expect(await greeting()).toBe('Bonjour 6');
    expect(output.slice(from)).not.toMatch(/restarting/);
    const spec = read('openapi.yaml');
    save('openapi.yaml', `${spec}\n  : [not yaml\n`);
    await until('a spec that does not parse reported', () => /openapi\.yaml does not parse/.test(output.slice(from)));
    expect(await greeting()).toBe('Bonjour 6');
    save('openapi.yaml', spec);
    save('src/rest/greetings.ts', withGreeting(source, 'Bonjour 8'));
    await until('served once it parses again', served('Bonjour 8'));
  }, 3 * WAIT_MS);
});
