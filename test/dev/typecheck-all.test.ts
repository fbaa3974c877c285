import { fork, type ChildProcess } from 'node:child_process';
import { cpSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../support/server-process';
import { tempDir } from '../support/temp';

// The dev loop's whole-project type-checker (scripts/dev/typecheck.js, mode `all`) on a copy of the project,
// fed change events as scripts/dev.js feeds them. An editor may write a file twice with the same text, and the
// watcher then reports a second change while the check of the first is under way: TypeScript keeps its program
// for it (no file's text changed) and calls nothing, and the check must still end with its line.

const COPIED = ['package.json', 'tsconfig.json', 'codegen.ts', 'src', 'generated', 'scripts'];
const WAIT_MS = 60000;

let dir: string;
let checker: ChildProcess | undefined;
let output = '';

beforeAll(() => {
  dir = tempDir('typecheck-all-');
  for (const name of COPIED) cpSync(path.join(projectRoot, name), path.join(dir, name), { recursive: true });
  symlinkSync(path.join(projectRoot, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
});

afterAll(() => {
  checker?.kill();
});

/** Resolves once the checker has printed `count` `[types]` lines (what follows the first is kept in `output`). */
function typesLines(count: number): Promise<void> {
  return new Promise((resolve) => {
    const seen = () => (output.match(/^\[types\] /gm) ?? []).length >= count && (resolve(), true);
    if (!seen()) checker!.stdout!.on('data', seen);
  });
}

it('ends the check of a change with its line when the same text is reported changed again while it runs', async () => {
  checker = fork(path.join(dir, 'scripts/dev/typecheck.js'), [dir, path.join(dir, 'dist/dev'), 'all'], { cwd: dir, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  checker.stdout!.on('data', (chunk) => (output += chunk));
  await typesLines(1); // the first check: ok
  expect(output).toMatch(/^\[types\] ok: \d+ files/m);

  // A change every file of src/ depends on: its check takes seconds, a file at a time.
  const config = path.join(dir, 'src/config.ts');
  writeFileSync(config, `${readFileSync(config, 'utf8')}\nexport const addedByTheTest: number = 'not a number';\n`);
  const changed = () => checker!.connected && checker!.send({ events: [{ type: 'update', path: config }], at: Date.now() });
  changed();
  // The same text reported again and again for the first seconds of the check: some of these land between two
  // of its files. The reports stop when the check's line comes, whichever is first: a report sent after the test
  // has stopped the checker would fail the run (EPIPE) in whatever suite runs next.
  const again = setInterval(changed, 100);
  const enough = setTimeout(() => clearInterval(again), 3000);
  try {
    await typesLines(2);
  } finally {
    clearInterval(again);
    clearTimeout(enough);
  }
  expect(output.split('\n').filter((line) => line.startsWith('[types]'))[1]).toMatch(/^\[types\] 1 type error in the project/);
}, 3 * WAIT_MS);

it('prints its line for a save only once the other checker has printed the saved file\'s errors (they are "above")', async () => {
  checker?.kill();
  output = '';
  checker = fork(path.join(dir, 'scripts/dev/typecheck.js'), [dir, path.join(dir, 'dist/dev'), 'all'], { cwd: dir, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  checker.stdout!.on('data', (chunk) => (output += chunk));
  await typesLines(1);

  // scripts/dev.js numbers the changes it sends, and relays `{ shown: n }` from the `saved` checker once that one
  // has printed the errors of the files saved up to change n.
  const leaf = path.join(dir, 'src/rest/handlers/meta.ts');
  const original = readFileSync(leaf, 'utf8');
  const send = (message: object) => checker!.connected && checker!.send(message);
  const saveLeaf = (text: string, seq: number) => {
    writeFileSync(leaf, text);
    send({ events: [{ type: 'update', path: leaf }], at: Date.now(), seq });
  };

  // Change 1, already shown: its line comes as soon as its check ends; how long that takes on this machine.
  const started = Date.now();
  send({ shown: 1 });
  saveLeaf(`${original}\nexport const first: number = 'not a number';\n`, 1);
  await typesLines(2);
  const checkMs = Date.now() - started;

  // Change 2, not shown yet: its line waits (here for longer than a check of it takes), then comes once it is shown.
  saveLeaf(`${original}\nexport const second: number = 'not a number';\n`, 2);
  await new Promise((resolve) => setTimeout(resolve, 2 * checkMs + 500));
  const linesBeforeShown = (output.match(/^\[types\] /gm) ?? []).length;
  send({ shown: 2 });
  await typesLines(3);
  expect(linesBeforeShown).toBe(2);
  expect(output.split('\n').filter((line) => line.startsWith('[types]'))[2]).toMatch(/^\[types\] \d+ (more )?type errors? in the project/);
}, 3 * WAIT_MS);
