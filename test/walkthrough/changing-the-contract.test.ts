import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Pool } from 'pg';
import { parseDocument } from 'yaml';
import { copyProject, type ProjectCopy } from '../support/project-copy';
import { json, serve, snippet, startCopy } from './support';

/**
 * docs/changing-the-contract.md's worked examples on a field, run as a user would on a copy of the project: the build
 * from before the change writes data (an SQLite file, and a PostgreSQL database when TEST_DATABASE_URL is set).
 * 1. Add `isbn`: the specs get the page's own snippets, `npm run generate`, the type-check and the build run, nothing
 *    under `src/` changes, and the new build serves the old data and the new field, over REST and GraphQL, a merge
 *    patch clearing it.
 * 2. Make it filterable and sortable: the page's parameter and input snippets, `npm run generate`, nothing under `src/`
 *    changes, and books filter and sort by isbn over REST and GraphQL.
 * 3. Make it required: generate names the examples, then the seed, to update (the test updates exactly what it
 *    names); the start without a default refuses in one line naming the stored records, not the seed; with the
 *    page's default, the start fills the stored books and serves them.
 */

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

let project: ProjectCopy;
const tsc = () => execFileSync(process.execPath, [project.file('node_modules/typescript/bin/tsc'), '-b', 'tsconfig.build.json'], { cwd: project.dir, stdio: 'pipe', encoding: 'utf8' });
const generate = () => project.run('npm', ['run', '--silent', 'generate']);
const typecheck = () => project.run('npm', ['run', '--silent', 'typecheck']);

/** openapi.yaml with `edit` applied to its document. */
function editSpec(edit: (doc: ReturnType<typeof parseDocument>) => void): void {
  const doc = parseDocument(project.read('openapi.yaml'));
  edit(doc);
  project.write('openapi.yaml', doc.toString());
}

/** Adds the doc's snippets to the copy's specs: the OpenAPI property to Book, BookCreate and BookUpdate, its merge-patch form to BookPatch, the GraphQL field to type Book. */
function addIsbn(): void {
  const property = (name: string) => Object.entries(parseDocument(snippet(name)).toJS() as Record<string, unknown>)[0];
  const [name, schema] = property('openapi');
  const [patchName, patchSchema] = property('openapi-patch');
  expect(patchName).toBe(name);
  editSpec((doc) => {
    for (const target of ['Book', 'BookCreate', 'BookUpdate']) doc.setIn(['components', 'schemas', target, 'properties', name], doc.createNode(schema));
    doc.setIn(['components', 'schemas', 'BookPatch', 'properties', name], doc.createNode(patchSchema));
  });
  const field = snippet('graphql')
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
  project.write('schema.graphql', project.read('schema.graphql').replace(/(type Book\b[^{]*\{[\s\S]*?)\n\}/, `$1\n${field}\n}`));
}

/** Adds the doc's filter snippets: the parameters to components and GET /books, isbn to BookSort, isbn to BookWhere and BookOrderBy. */
function declareFilters(): void {
  const parameters = parseDocument(snippet('openapi-filters')).toJS() as Record<string, unknown>;
  editSpec((doc) => {
    const listed = doc.getIn(['paths', '/books', 'get', 'parameters']) as { add(node: unknown): void };
    for (const [name, parameter] of Object.entries(parameters)) {
      doc.setIn(['components', 'parameters', name], doc.createNode(parameter));
      listed.add(doc.createNode({ $ref: `#/components/parameters/${name}` }));
    }
    const sort = doc.getIn(['components', 'parameters', 'BookSort', 'schema', 'items', 'enum']) as { add(node: unknown): void };
    sort.add('isbn');
    sort.add('-isbn');
  });
  project.write(
    'schema.graphql',
    project
      .read('schema.graphql')
      .replace(/(input BookWhere \{[\s\S]*?)\n\}/, `$1\n  ${snippet('graphql-where')}\n}`)
      .replace(/(input BookOrderBy @oneOf \{[\s\S]*?)\n\}/, `$1\n  ${snippet('graphql-order')}\n}`),
  );
}

describe('docs/changing-the-contract.md, the worked examples on a field, on a copy of the project', () => {
  let database: { url: string; drop(): Promise<void> } | undefined;
  const stores: [string, () => Record<string, string>][] = [['SQLite', () => ({ STORE: 'sqlite', SQLITE_FILE: project.file('data/walkthrough.sqlite') })]];
  if (process.env.TEST_DATABASE_URL) stores.push(['PostgreSQL', () => ({ STORE: 'postgres', DATABASE_URL: database!.url })]);
  const storeEnv = (store: string) => stores.find(([name]) => name === store)![1]();
  const before = new Map<string, number>();

  beforeAll(async () => {
    project = copyProject('walkthrough');
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
    project?.remove();
  });

  describe('add isbn to books', () => {
    it('when the build from before the change serves, then it stores a book on each store', async () => {
      tsc();
      for (const [store, env] of stores) {
        const service = await serve(project.dir, env());
        const made = await json(`${service.url}/books`, { method: 'POST', body: JSON.stringify({ title: `Stored before, on ${store}` }) });
        expect(made.status).toBe(201);
        before.set(store, made.body.id as unknown as number);
        await service.stop();
      }
    });

    it("when the specs get the page's snippets, then generate, the type-check and the build pass with nothing under src/ edited", () => {
      const src = treeHash(project.file('src'));
      addIsbn();
      expect(generate()).toMatchObject({ status: 0 });
      expect(project.read('generated/openapi.ts')).toMatch(/isbn\?: string/);
      expect(project.read('generated/graphql.ts')).toMatch(/isbn\?: Maybe<Scalars\['String'\]\['output'\]>/);
      expect(typecheck()).toMatchObject({ status: 0 });
      tsc();
      expect(treeHash(project.file('src'))).toBe(src);
    });

    it.each(stores.map(([store]) => store))('when the new build starts on the data %s held before, then REST and GraphQL serve the old book without the field and new books with it, and a merge patch clears it', async (store) => {
      const service = await serve(project.dir, storeEnv(store));
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
        // The page's PATCH: a merge patch's null removes the field.
        const cleared = await json(`${service.url}/books/${oldId + 1}`, { method: 'PATCH', contentType: 'application/merge-patch+json', body: JSON.stringify({ isbn: null }) });
        expect(cleared).toEqual({ status: 200, body: { id: oldId + 1, title: 'Persuasion (1817)', pages: 0 } });
      } finally {
        await service.stop();
      }
    });
  });

  describe('make isbn filterable and sortable', () => {
    it('when the specs get the filter snippets, then generate, the type-check and the build pass with nothing under src/ edited', () => {
      const src = treeHash(project.file('src'));
      declareFilters();
      expect(generate()).toMatchObject({ status: 0 });
      expect(project.read('generated/openapi.ts')).toMatch(/"isbn\[startsWith\]"\?: components\["parameters"\]\["IsbnStartsWith"\]/);
      expect(project.read('generated/graphql.ts')).toMatch(/isbn\?: InputMaybe<StringFilter>/);
      expect(typecheck()).toMatchObject({ status: 0 });
      tsc();
      expect(treeHash(project.file('src'))).toBe(src);
    });

    it.each(stores.map(([store]) => store))('when that build starts on the data %s held, then books filter and sort by isbn over REST and GraphQL, and undeclared operators are refused', async (store) => {
      const service = await serve(project.dir, storeEnv(store));
      try {
        for (const [title, isbn] of [['Emma', '9780141439587'], ['Mansfield Park', '9780141439808']]) {
          expect((await json(`${service.url}/books`, { method: 'POST', body: JSON.stringify({ title, isbn }) })).status).toBe(201);
        }
        const found = (await json(`${service.url}/books?isbn[startsWith]=978014&sort=-isbn`)).body as unknown as { isbn: string }[];
        expect(found.map((b) => b.isbn)).toEqual(['9780141439808', '9780141439587']);
        expect(((await json(`${service.url}/books?isbn=9780141439587`)).body as unknown as { title: string }[]).map((b) => b.title)).toEqual(['Emma']);
        const refused = await json(`${service.url}/books?isbn[gt]=1`);
        expect(refused.status).toBe(400);
        expect(JSON.stringify(refused.body)).toContain('isbn[gt]');
        const gql = await json(`${service.url}/graphql`, { method: 'POST', body: JSON.stringify({ query: '{ books(where: {isbn: {startsWith: "978"}}, orderBy: [{isbn: ASC}]) { title } }' }) });
        expect(gql.body).toEqual({ data: { books: [{ title: 'Emma' }, { title: 'Mansfield Park' }] } });
      } finally {
        await service.stop();
      }
    });
  });

  describe('make isbn required, without then with a default', () => {
    it('when isbn is required, then generate names the examples to update, then the seed records, one line each; once each has one, it generates, the type-check finds nothing under src/, and the build passes', () => {
      editSpec((doc) => {
        for (const schema of ['Book', 'BookCreate']) {
          const required = doc.getIn(['components', 'schemas', schema, 'required']) as { toJSON(): string[] };
          doc.setIn(['components', 'schemas', schema, 'required'], doc.createNode([...required.toJSON(), 'isbn']));
        }
        doc.setIn(['components', 'schemas', 'BookPatch', 'properties', 'isbn', 'type'], 'string');
      });

      const examples = generate();
      expect(examples.status).toBe(1);
      expect(examples.stderr).toMatch(/^generate: refused, generated\/ is unchanged: openapi\.yaml's own examples lack isbn, which its schema requires/);
      const lines = project.read('openapi.yaml').split('\n');
      const named = [...examples.stderr.matchAll(/^ {2}openapi\.yaml:(\d+) (.*): add isbn$/gm)];
      expect(named.map(([, , label]) => label)).toEqual(expect.arrayContaining(['POST /books 201 example', 'GET /books/{id} 200 example', 'response BookList example, item 0 (GET /books 200)']));
      // Each example named gets an isbn, on the line named: nothing else is looked for.
      named.forEach(([, line], i) => {
        const at = Number(line) - 1;
        expect(lines[at]).toMatch(/\}\s*$/);
        lines[at] = lines[at].replace(/\s*\}\s*$/, `, isbn: '978000000000${i % 10}' }`);
      });
      project.write('openapi.yaml', lines.join('\n'));

      const seed = generate();
      expect(seed.status).toBe(1);
      expect(seed.stderr).toMatch(/^generate: refused, generated\/ is unchanged: seed\/default\.json, the data a new store starts with, lacks isbn/);
      const data = JSON.parse(project.read('seed/default.json')) as { books: Record<string, unknown>[] };
      const records = [...seed.stderr.matchAll(/^ {2}seed\/default\.json:\d+ books\[(\d+)\] \(id \d+\): add isbn$/gm)].map(([, index]) => Number(index));
      expect(records.sort()).toEqual(data.books.map((_, i) => i));
      for (const index of records) data.books[index].isbn = `97800000001${String(index).padStart(2, '0')}`;
      project.write('seed/default.json', `${JSON.stringify(data, null, 2)}\n`);

      expect(generate()).toMatchObject({ status: 0 });
      expect(project.read('generated/openapi.ts')).toMatch(/ isbn: string;/);
      // The service's code needs no change; the project's own tests that build a book without isbn are pointed at.
      const checked = typecheck();
      const located = [...checked.stdout.matchAll(/^(\S+)\(\d+,\d+\): error TS\d+/gm)].map(([, file]) => file);
      expect(located.filter((file) => !file.startsWith('test/'))).toEqual([]);
      tsc();
    });

    it.each(stores.map(([store]) => store))('when the new build starts on the data %s held, with no default, then it refuses in one line naming the stored records, not the seed', async (store) => {
      const started = await startCopy(project.dir, storeEnv(store));
      if (started.running) {
        await started.running.stop();
        throw new Error(`the service started: ${started.output}`);
      }
      expect(started.code).toBe(1);
      const refusal = started.output.split('\n').filter((line) => line.startsWith('Failed to start'));
      expect(refusal).toHaveLength(1);
      expect(refusal[0]).toMatch(/^Failed to start: The stored data does not fit the contract: books\.isbn is now required with no default, and \d+ stored records have no value for it: give it a default in the contract/);
      expect(refusal[0]).not.toMatch(/seed/);
    });

    it.each(stores.map(([store]) => store))("when isbn gets the page's default, then the start on the data %s held gives it to the books that had none, over REST and GraphQL", async (store) => {
      if (store === stores[0][0]) {
        const { default: value } = parseDocument(snippet('default')).toJS() as { default: string };
        editSpec((doc) => doc.setIn(['components', 'schemas', 'Book', 'properties', 'isbn', 'default'], value));
        expect(generate()).toMatchObject({ status: 0 });
        tsc();
      }
      const service = await serve(project.dir, storeEnv(store));
      try {
        const oldId = before.get(store)!;
        expect((await json(`${service.url}/books/${oldId}`)).body).toEqual({ id: oldId, title: `Stored before, on ${store}`, pages: 0, isbn: '0000000000000' });
        const gql = await json(`${service.url}/graphql`, { method: 'POST', body: JSON.stringify({ query: `{ book(id: "${oldId}") { isbn } }` }) });
        expect(gql.body).toEqual({ data: { book: { isbn: '0000000000000' } } });
        const missing = await json(`${service.url}/books`, { method: 'POST', body: JSON.stringify({ title: 'No isbn' }) });
        expect(missing.status).toBe(400);
      } finally {
        await service.stop();
      }
    });
  });
});
