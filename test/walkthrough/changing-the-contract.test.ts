import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Pool } from 'pg';
import { parseDocument } from 'yaml';
import { freePort, projectRoot } from '../support/server-process';
import { spawn, type ChildProcess } from 'node:child_process';

/**
 * docs/changing-the-contract.md's worked example, run as a user would on a copy of the project: the build from
 * before the change writes data (an SQLite file, and a PostgreSQL database when TEST_DATABASE_URL is set), the
 * specs get the page's own snippets, `npm run generate`, the type-check and the build run, nothing under `src/`
 * changes, and the new build serves the old data and the new field, over REST and GraphQL.
 */

const DOC = path.join(projectRoot, 'docs', 'changing-the-contract.md');

/** The code block that follows `<!-- walkthrough:NAME -->` in the doc, unindented. */
function snippet(name: string): string {
  const text = readFileSync(DOC, 'utf8');
  const at = text.indexOf(`<!-- walkthrough:${name} -->`);
  if (at < 0) throw new Error(`docs/changing-the-contract.md has no walkthrough:${name} snippet`);
  const block = /```[a-z]*\n([\s\S]*?)\n\s*```/.exec(text.slice(at))![1];
  const indent = /^ */.exec(block)![0].length;
  return block
    .split('\n')
    .map((line) => line.slice(indent))
    .join('\n');
}

/** The project's files as git sees them (tracked and new, not ignored), copied; node_modules linked. */
function copyProject(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'walkthrough-'));
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: projectRoot, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of files) {
    const from = path.join(projectRoot, file);
    if (!statSync(from, { throwIfNoEntry: false })?.isFile()) continue;
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    cpSync(from, path.join(dir, file));
  }
  symlinkSync(path.join(projectRoot, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return dir;
}

/** A hash of every file under `folder`, by path. */
function treeHash(folder: string): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else hash.update(`${path.relative(folder, file)}\0`).update(readFileSync(file));
    }
  };
  walk(folder);
  return hash.digest('hex');
}

const run = (dir: string, command: string, args: string[]) => execFileSync(command, args, { cwd: dir, stdio: 'pipe', encoding: 'utf8' });

interface Running {
  url: string;
  stop(): Promise<void>;
}

/** The copy's built service on `env`, once it answers /health/ready. */
async function start(dir: string, env: Record<string, string>): Promise<Running> {
  const port = await freePort();
  let output = '';
  const child: ChildProcess = spawn(process.execPath, [path.join(dir, 'dist', 'src', 'server.js')], {
    cwd: dir,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i += 1) {
    if (child.exitCode !== null) throw new Error(`the service exited: ${output}`);
    try {
      if ((await fetch(`${url}/health/ready`)).ok) break;
    } catch {
      // not listening yet
    }
    if (i > 300) throw new Error(`the service did not start: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

const json = async (url: string, init?: RequestInit) => {
  const res = await fetch(url, { ...init, headers: { 'Content-Type': 'application/json', ...init?.headers } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> & Record<string, unknown>[] };
};

/** Adds the doc's snippets to the copy's specs: the OpenAPI property to Book, BookCreate and BookUpdate, the GraphQL field to type Book. */
function editSpecs(dir: string): void {
  const file = path.join(dir, 'openapi.yaml');
  const doc = parseDocument(readFileSync(file, 'utf8'));
  const property = parseDocument(snippet('openapi')).toJS() as Record<string, unknown>;
  const [name, schema] = Object.entries(property)[0];
  for (const target of ['Book', 'BookCreate', 'BookUpdate']) doc.setIn(['components', 'schemas', target, 'properties', name], doc.createNode(schema));
  writeFileSync(file, doc.toString());
  const sdlFile = path.join(dir, 'schema.graphql');
  const field = snippet('graphql')
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
  const sdl = readFileSync(sdlFile, 'utf8').replace(/(type Book\b[^{]*\{[\s\S]*?)\n\}/, `$1\n${field}\n}`);
  writeFileSync(sdlFile, sdl);
}

/** Adds the doc's filter snippets: the parameters to components and GET /books, isbn to BookSort, isbn to BookWhere and BookOrderBy. */
function declareFilters(dir: string): void {
  const file = path.join(dir, 'openapi.yaml');
  const doc = parseDocument(readFileSync(file, 'utf8'));
  const parameters = parseDocument(snippet('openapi-filters')).toJS() as Record<string, unknown>;
  const listed = doc.getIn(['paths', '/books', 'get', 'parameters']) as { add(node: unknown): void };
  for (const [name, parameter] of Object.entries(parameters)) {
    doc.setIn(['components', 'parameters', name], doc.createNode(parameter));
    listed.add(doc.createNode({ $ref: `#/components/parameters/${name}` }));
  }
  const sort = doc.getIn(['components', 'parameters', 'BookSort', 'schema', 'items', 'enum']) as { add(node: unknown): void };
  sort.add('isbn');
  sort.add('-isbn');
  writeFileSync(file, doc.toString());
  const sdlFile = path.join(dir, 'schema.graphql');
  const sdl = readFileSync(sdlFile, 'utf8')
    .replace(/(input BookWhere \{[\s\S]*?)\n\}/, `$1\n  ${snippet('graphql-where')}\n}`)
    .replace(/(input BookOrderBy @oneOf \{[\s\S]*?)\n\}/, `$1\n  ${snippet('graphql-order')}\n}`);
  writeFileSync(sdlFile, sdl);
}

describe('docs/changing-the-contract.md, the worked example, on a copy of the project', () => {
  let dir: string;
  let database: { url: string; drop(): Promise<void> } | undefined;
  const stores: [string, () => Record<string, string>][] = [['SQLite', () => ({ STORE: 'sqlite', SQLITE_FILE: path.join(dir, 'data', 'walkthrough.sqlite') })]];
  if (process.env.TEST_DATABASE_URL) stores.push(['PostgreSQL', () => ({ STORE: 'postgres', DATABASE_URL: database!.url })]);
  const before = new Map<string, number>();

  beforeAll(async () => {
    dir = copyProject();
    if (process.env.TEST_DATABASE_URL) {
      const admin = new Pool({ connectionString: process.env.TEST_DATABASE_URL, max: 1 });
      const name = `walkthrough_${process.pid}`;
      await admin.query(`DROP DATABASE IF EXISTS ${name}`);
      await admin.query(`CREATE DATABASE ${name}`);
      const url = new URL(process.env.TEST_DATABASE_URL);
      url.pathname = `/${name}`;
      database = {
        url: url.toString(),
        drop: async () => {
          await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
          await admin.end();
        },
      };
    }
  });

  afterAll(async () => {
    await database?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('when the build from before the change serves, then it stores a book on each store', async () => {
    run(dir, process.execPath, [path.join(dir, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', 'tsconfig.build.json']);
    for (const [store, env] of stores) {
      const service = await start(dir, env());
      const made = await json(`${service.url}/books`, { method: 'POST', body: JSON.stringify({ title: `Stored before, on ${store}` }) });
      expect(made.status).toBe(201);
      before.set(store, made.body.id as unknown as number);
      await service.stop();
    }
  });

  it('when the specs get the page\'s snippets, then generate, the type-check and the build pass with nothing under src/ edited', () => {
    const src = treeHash(path.join(dir, 'src'));
    editSpecs(dir);
    run(dir, 'npm', ['run', '--silent', 'generate']);
    expect(readFileSync(path.join(dir, 'generated', 'openapi.ts'), 'utf8')).toMatch(/isbn\?: string/);
    expect(readFileSync(path.join(dir, 'generated', 'graphql.ts'), 'utf8')).toMatch(/isbn\?: Maybe<Scalars\['String'\]\['output'\]>/);
    run(dir, 'npm', ['run', '--silent', 'typecheck']);
    run(dir, process.execPath, [path.join(dir, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', 'tsconfig.build.json']);
    expect(treeHash(path.join(dir, 'src'))).toBe(src);
  });

  it.each(stores.map(([store]) => store))('when the new build starts on the data %s held before, then REST and GraphQL serve the old book without the field and new books with it', async (store) => {
    const env = stores.find(([name]) => name === store)![1]();
    const service = await start(dir, env);
    try {
      const oldId = before.get(store)!;
      expect((await json(`${service.url}/books/${oldId}`)).body).toEqual({ id: oldId, title: `Stored before, on ${store}`, pages: 0 });
      const made = await json(`${service.url}/books`, { method: 'POST', body: JSON.stringify({ title: 'Persuasion', isbn: '9780141439686' }) });
      expect(made).toEqual({ status: 201, body: { id: oldId + 1, title: 'Persuasion', pages: 0, isbn: '9780141439686' } });
      const kept = await json(`${service.url}/books/${oldId + 1}`, { method: 'PUT', body: JSON.stringify({ title: 'Persuasion (1817)' }) });
      expect(kept.body).toEqual({ id: oldId + 1, title: 'Persuasion (1817)', pages: 0, isbn: '9780141439686' });
      const bad = await json(`${service.url}/books`, { method: 'POST', body: JSON.stringify({ title: 'Bad', isbn: '123' }) });
      expect(bad.status).toBe(400);
      expect(JSON.stringify(bad.body)).toContain('/body/isbn');
      const list = (await json(`${service.url}/books`)).body as Record<string, unknown>[];
      expect(list.some((book) => Object.values(book).includes(null))).toBe(false);
      const gql = await json(`${service.url}/graphql`, { method: 'POST', body: JSON.stringify({ query: '{ books { id title isbn } }' }) });
      const books = (gql.body.data as { books: { id: string; isbn: string | null }[] }).books;
      expect(books.find((b) => b.id === String(oldId))?.isbn).toBeNull();
      expect(books.find((b) => b.id === String(oldId + 1))?.isbn).toBe('9780141439686');
    } finally {
      await service.stop();
    }
  });

  it('when the specs get the filter snippets, then generate, the type-check and the build pass with nothing under src/ edited', () => {
    const src = treeHash(path.join(dir, 'src'));
    declareFilters(dir);
    run(dir, 'npm', ['run', '--silent', 'generate']);
    expect(readFileSync(path.join(dir, 'generated', 'openapi.ts'), 'utf8')).toMatch(/"isbn\[startsWith\]"\?: components\["parameters"\]\["IsbnStartsWith"\]/);
    expect(readFileSync(path.join(dir, 'generated', 'graphql.ts'), 'utf8')).toMatch(/isbn\?: InputMaybe<StringFilter>/);
    run(dir, 'npm', ['run', '--silent', 'typecheck']);
    run(dir, process.execPath, [path.join(dir, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', 'tsconfig.build.json']);
    expect(treeHash(path.join(dir, 'src'))).toBe(src);
  });

  it.each(stores.map(([store]) => store))('when that build starts on the data %s held, then books filter and sort by isbn over REST and GraphQL, and undeclared operators are refused', async (store) => {
    const env = stores.find(([name]) => name === store)![1]();
    const service = await start(dir, env);
    try {
      await json(`${service.url}/books`, { method: 'POST', body: JSON.stringify({ title: 'Emma', isbn: '9780141439587' }) });
      const found = (await json(`${service.url}/books?isbn[startsWith]=978014&sort=-isbn`)).body as unknown as { title: string; isbn: string }[];
      expect(found.map((b) => b.isbn)).toEqual(['9780141439686', '9780141439587']);
      expect(((await json(`${service.url}/books?isbn=9780141439587`)).body as unknown as { title: string }[]).map((b) => b.title)).toEqual(['Emma']);
      const refused = await json(`${service.url}/books?isbn[gt]=1`);
      expect(refused.status).toBe(400);
      expect(JSON.stringify(refused.body)).toContain('isbn[gt]');
      const gql = await json(`${service.url}/graphql`, { method: 'POST', body: JSON.stringify({ query: '{ books(where: {isbn: {startsWith: "978"}}, orderBy: [{isbn: ASC}]) { title } }' }) });
      expect(gql.body).toEqual({ data: { books: [{ title: 'Emma' }, { title: 'Persuasion (1817)' }] } });
    } finally {
      await service.stop();
    }
  });
});
