import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from '../support/server-process';
import { copyProject, type ProjectCopy } from '../support/project-copy';
import { indented, serve, snippet, startCopy } from './support';

/**
 * docs/changing-the-contract.md's "add an operation, with npm run dev running", on a copy of the project: a save of
 * the page's operation without its parameter's description is refused as `npm run generate` refuses it (the
 * service keeps the last specs), the page's operation is served mocked (its 404 from the schema, not a book's
 * example), `npm start` names the missing handler in the start's one line although dev regenerated generated/, and
 * the page's handler is served by dev and by `npm start`.
 * Every wait is for what the loop prints or serves; none is for a time.
 */

let project: ProjectCopy;
let dev: ChildProcess;
let output = '';
let port: number;

const get = async (pathname: string, headers: Record<string, string> = {}) => {
  try {
    const res = await fetch(`http://127.0.0.1:${port}${pathname}`, { headers });
    return { status: res.status, mock: res.headers.get('x-mock'), text: await res.text() };
  } catch {
    return undefined; // restarting
  }
};

/** Polls until `check` holds (the test's timeout is the only bound: it guards against a hang, it measures nothing). */
async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** The page's operation under `paths:`; without the parameter's description when `lintable` is false. */
function withOperation(spec: string, lintable: boolean): string {
  const operation = snippet('operation')
    .split('\n')
    .filter((line) => lintable || !line.includes("description: The quote's id."))
    .join('\n');
  return spec.replace('\npaths:\n', `\npaths:\n${indented(operation, 2)}\n`);
}

beforeAll(async () => {
  project = copyProject('walkthrough-operation');
  port = await freePort();
  const { MOCK_UNIMPLEMENTED: _unset, ...env } = process.env;
  dev = spawn(process.execPath, [project.file('scripts/dev.js')], {
    cwd: project.dir,
    env: { ...env, PORT: String(port), STORE: 'memory', LOG_LEVEL: 'info', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  dev.stdout!.on('data', (chunk) => (output += chunk));
  dev.stderr!.on('data', (chunk) => (output += chunk));
  await until(async () => (await get('/greet/fr'))?.status === 200);
  await until(() => /\[types\] (ok|\d+ (more )?type error)/.test(output));
});

afterAll(async () => {
  if (dev && dev.exitCode === null) {
    const exited = new Promise((resolve) => dev.once('exit', resolve));
    dev.kill('SIGINT');
    await exited;
  }
  project?.remove();
});

describe("docs/changing-the-contract.md, adding an operation with npm run dev running, on a copy of the project", () => {
  const spec = () => project.read('openapi.yaml');
  let original: string;

  it("when the page's operation is saved without its parameter's description, then dev refuses it as generate does and keeps serving the last specs", async () => {
    original = spec();
    const from = output.length;
    project.write('openapi.yaml', withOperation(original, false));
    await until(() => /keeping the running service on the last specs it could use/.test(output.slice(from)));
    expect(output.slice(from)).toMatch(/openapi\.yaml breaks a lint rule \(redocly\.yaml, as npm run lint:openapi checks\):\n {2}openapi\.yaml:\d+:\d+ GET \/quotes\/\{id\} parameter id: Parameter object description must be present \(parameter-description\)\n/);
    expect((await get('/quotes/1'))?.status).toBe(404);
    expect(project.read('generated/openapi.ts')).not.toContain('getQuote');
  });

  it("when the page's operation is saved, then dev serves it mocked: its example, and a 404 from the error schema rather than a book's example", async () => {
    project.write('openapi.yaml', withOperation(original, true));
    await until(async () => (await get('/quotes/1'))?.status === 200);
    const found = (await get('/quotes/1'))!;
    expect(found).toMatchObject({ mock: 'example' });
    expect(JSON.parse(found.text)).toEqual({ id: 1, text: 'Less is more.' });
    const missing = (await get('/quotes/1', { Prefer: 'code=404' }))!;
    expect(missing).toMatchObject({ status: 404, mock: 'schema' });
    expect(missing.text).not.toContain('Book');
    await until(() => project.read('generated/openapi.ts').includes('getQuote'));
  });

  it('when npm start runs after dev regenerated generated/, then it refuses with the one contract line naming the operation', async () => {
    const started = await startCopy(project.dir, { STORE: 'memory' }, 'scripts/start.js');
    if (started.running) {
      await started.running.stop();
      throw new Error(`npm start served: ${started.output}`);
    }
    expect(started.code).toBe(1);
    expect(started.output.trimEnd().split('\n')).toEqual(['Failed to start: Contract not fully implemented: openapi.yaml operations without a handler: getQuote (GET /quotes/{id})']);
  });

  it("when the page's handler is added, then dev serves it (no mock), and npm start serves it too", async () => {
    const meta = project.read('src/rest/handlers/meta.ts');
    const handler = indented(snippet('handler'), 2);
    project.write('src/rest/handlers/meta.ts', meta.replace('export const metaHandlers = {\n', `export const metaHandlers = {\n${handler}\n`));
    await until(async () => (await get('/quotes/1'))?.mock === null);
    expect(JSON.parse((await get('/quotes/1'))!.text)).toEqual({ id: 1, text: 'Less is more.' });
    expect(await get('/quotes/2')).toMatchObject({ status: 404, mock: null, text: '{"error":"Quote 2 not found"}' });
    const service = await serve(project.dir, { STORE: 'memory' }, 'scripts/start.js');
    try {
      const res = await fetch(`${service.url}/quotes/1`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ id: 1, text: 'Less is more.' });
    } finally {
      await service.stop();
    }
  });
});
