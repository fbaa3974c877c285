import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, projectRoot } from '../support/server-process';

// `npm run dev` (scripts/dev.js) on a copy of the project: every kind of save is seen and served, a type
// error is reported with its file and line without stopping the restart, and a file that does not parse
// leaves the last good build serving. Saves are made the two ways editors make them: writing the file in
// place, and writing a new file then renaming it over the old one (vim, JetBrains' safe write, sed -i).
// Times are printed, not asserted: the machine running the tests may be busy. Nothing waits for a given time.

const COPIED = ['openapi.yaml', 'schema.graphql', 'package.json', 'tsconfig.json', 'codegen.ts', 'redocly.yaml', 'src', 'generated', 'seed', 'scripts'];
/** The unit of the tests' timeouts, which only guard against a hang. */
const WAIT_MS = 60000;

let dir: string;
let dev: ChildProcess;
let output = '';
let port: number;
const timings: string[] = [];
/** What the test waits for, while it waits: named, with dev's output, if a test times out. */
let current: string | undefined;

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
    // A connection accepted by a service that never answers (one being stopped) is dropped after 10 s.
    const res = await fetch(`http://127.0.0.1:${port}${pathname}`, { signal: AbortSignal.timeout(10_000) });
    return { status: res.status, text: await res.text() };
  } catch {
    return undefined; // restarting
  }
}

/** Set once the tests are over: a wait still polling (its test timed out) stops, and jest can exit. */
let over = false;

/**
 * Polls until `check` holds; resolves to the time taken (printed at the end, never asserted). Its deadline,
 * 2 x WAIT_MS, only guards against a hang: then it fails naming what it waited for, with the end of what dev
 * printed.
 */
async function until(what: string, check: () => boolean | Promise<boolean>): Promise<number> {
  const started = Date.now();
  current = what;
  while (!(await check())) {
    if (over || Date.now() - started > 2 * WAIT_MS) throw new Error(`gave up waiting for: ${what}\n--- npm run dev printed:\n${output.slice(-4000)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  current = undefined;
  timings.push(`${what}: ${Date.now() - started} ms`);
  return Date.now() - started;
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
  // The type-checkers have read the project: a save from now on is reported as a save.
  await until('the first type-check', () => /\[types\] (ok|\d+ type error)/.test(output));
}, 3 * WAIT_MS);

afterAll(async () => {
  over = true;
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
  if (current) process.stdout.write(`a test timed out waiting for: ${current}\n--- npm run dev printed:\n${output.slice(-4000)}\n`);
});

describe('npm run dev', () => {
  it('runs the service with MOCK_UNIMPLEMENTED=true and VALIDATE_RESPONSES=true when they are not set', () => {
    const pids = [...output.matchAll(/\((\d+)\): starting/g)].map((match) => match[1]);
    expect(pids.length).toBeGreaterThan(0);
    const environ = `/proc/${pids[pids.length - 1]}/environ`;
    if (!existsSync(environ)) return; // no /proc here: not checked
    expect(readFileSync(environ, 'utf8').split('\0')).toEqual(expect.arrayContaining(['MOCK_UNIMPLEMENTED=true', 'VALIDATE_RESPONSES=true']));
  });

  it('answers a handler\'s answer that breaks openapi.yaml with a 500 naming the field, and prints the saved file\'s type error first, then one line counting the rest', async () => {
    const handler = read('src/rest/handlers/meta.ts');
    const broken = handler.replace('{ status: 200, body: found }', '{ status: 200, body: { ...found, greeting: 42 } }');
    expect(broken).not.toBe(handler);
    const from = output.length;
    save('src/rest/handlers/meta.ts', broken);
    try {
      await until('the broken answer served as a 500 naming the field', async () => {
        const res = await get('/greet/fr');
        return res?.status === 500 && res.text === 'Unexpected error: greet 200 body does not match openapi.yaml: /greeting must be string';
      });
      await until('the rest of the project counted', () => /\[types\] \d+ more type errors? in the project.*: src\/.*; npm run typecheck prints them/.test(output.slice(from)));
      const printed = output.slice(from);
      expect(printed).toMatch(/\[types\] src\/rest\/handlers\/meta\.ts: 1 type error/);
      expect(printed.indexOf('src/rest/handlers/meta.ts: 1 type error')).toBeLessThan(printed.search(/more type errors? in the project/));
      // Only the saved file's errors are printed in full.
      const located = [...printed.matchAll(/^\s+(\S+):\d+:\d+ error TS\d+/gm)].map((match) => match[1]);
      expect(new Set(located)).toEqual(new Set(['src/rest/handlers/meta.ts']));
    } finally {
      save('src/rest/handlers/meta.ts', handler);
      await until('served once fixed', served('Bonjour'));
    }
  }, 3 * WAIT_MS);

  it('refuses a spec save that breaks the lint rules as npm run generate does, never printing "ok" for it, and keeps the last good specs serving until it is fixed', async () => {
    const spec = read('openapi.yaml');
    const operation = (lintable: boolean) =>
      [
        '  /quotes/{id}:',
        '    get:',
        ...(lintable ? ['      tags: [meta]'] : []),
        '      operationId: getQuote',
        '      summary: Get a quote',
        '      parameters:',
        '        - name: id',
        '          in: path',
        '          required: true',
        ...(lintable ? ['          description: The quote.'] : []),
        '          schema: { type: integer, minimum: 1, maximum: 1000 }',
        '      responses:',
        "        '200':",
        '          description: A quote.',
        '          content:',
        '            application/json:',
        '              schema: { type: object, required: [text], properties: { text: { type: string } } }',
        '              example: { text: Less is more. }',
        "        '404':",
        "          $ref: '#/components/responses/JsonNotFound'",
      ].join('\n');
    const withQuote = (lintable: boolean) => spec.replace('\npaths:\n', `\npaths:\n${operation(lintable)}\n`);
    expect(withQuote(false)).not.toBe(spec);
    const from = output.length;
    save('openapi.yaml', withQuote(false));
    await until('the lint refusal printed', () => /openapi\.yaml breaks 2 lint rules[\s\S]*GET \/quotes\/\{id\}: Operation tags should be defined \(operation-tag-defined\)[\s\S]*parameter-description\)\n.*keeping the running service/.test(output.slice(from)));
    // A save under src/ while the specs are refused is compiled, not served.
    const source = read('src/rest/greetings.ts');
    save('src/rest/greetings.ts', withGreeting(source, 'Bonjour 9'));
    await until('the held restart said', () => /not restarting for src\/rest\/greetings\.ts: the specs are refused/.test(output.slice(from)));
    expect(await greeting()).toBe('Bonjour');
    expect((await get('/openapi.json'))?.text).not.toContain('/quotes/');
    expect(read('generated/openapi.ts')).not.toContain('getQuote');
    save('openapi.yaml', withQuote(true));
    await until('the fixed spec served, the held save with it', async () => (await get('/openapi.json'))?.text.includes('/quotes/{id}') === true && (await greeting()) === 'Bonjour 9');
    await until('the fixed spec classified', () => /SAFE\s+openapi\.yaml\s+GET \/quotes\/\{id\}: operation added/.test(output.slice(from)));
    // Before the fixed save, nothing was said to be fine.
    const refusedPart = output.slice(from, output.indexOf('GET /quotes/{id}: operation added', from));
    expect(refusedPart).not.toMatch(/no change to operations|: ok\n/);
    // The mocked operation's 404 is its own: from the schema, never the book example the shared response carries.
    const missing = await fetch(`http://127.0.0.1:${port}/quotes/5`, { headers: { Prefer: 'code=404' } });
    expect(missing.status).toBe(404);
    expect(await missing.text()).not.toContain('Book 42');
    save('openapi.yaml', spec);
    save('src/rest/greetings.ts', source);
    await until('back to the first spec', async () => (await get('/openapi.json'))?.text.includes('/quotes/{id}') === false && (await greeting()) === 'Bonjour');
  }, 4 * WAIT_MS);

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
