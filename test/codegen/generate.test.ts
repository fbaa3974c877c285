import { parseDocument } from 'yaml';
import { copyProject, type ProjectCopy } from '../support/project-copy';

/**
 * `npm run generate` on a copy of the project: specs the project cannot use are refused before anything is
 * written, with what to change, one line each (scripts/spec-refusals.js): the spec's own examples that lack a field
 * made required (named by the operation and status they document, in the order of the file), any other lint error
 * (redocly.yaml), and what the service's start-up checks refuse (a field REST and GraphQL cannot serve alike).
 */

const SPECS_AND_TOOLS = ['openapi.yaml', 'schema.graphql', 'package.json', 'tsconfig.json', 'codegen.ts', 'redocly.yaml', 'src', 'generated', 'seed', 'scripts'];

let project: ProjectCopy;
let spec: string;
let sdl: string;

beforeAll(() => {
  project = copyProject('generate', SPECS_AND_TOOLS);
  spec = project.read('openapi.yaml');
  sdl = project.read('schema.graphql');
});
afterAll(() => project?.remove());
afterEach(() => {
  project.write('openapi.yaml', spec);
  project.write('schema.graphql', sdl);
});

const generate = () => project.run('npm', ['run', '--silent', 'generate']);

/** openapi.yaml with `edit` applied to its document (the YAML library keeps comments and order). */
function editSpec(edit: (doc: ReturnType<typeof parseDocument>) => void): void {
  const doc = parseDocument(spec);
  edit(doc);
  project.write('openapi.yaml', doc.toString());
}

/** The line (1-based) of the first line of openapi.yaml that contains `text`, at or after `from`. */
const lineOf = (text: string, from = 1) => project.read('openapi.yaml').split('\n').findIndex((line, i) => i + 1 >= from && line.includes(text)) + 1;

describe('npm run generate', () => {
  it('when the specs are fine, then it writes nothing new and says generated/ is up to date', () => {
    expect(generate()).toMatchObject({ status: 0, stdout: 'generate: generated/ is up to date\n' });
  }, 120000);

  it('when a field is made required that the spec\'s own examples lack, then it refuses, naming each example to update with its line, in file order, and writes nothing', () => {
    const before = project.read('generated/openapi.ts');
    editSpec((doc) => {
      for (const schema of ['Book', 'BookCreate', 'BookUpdate']) doc.setIn(['components', 'schemas', schema, 'properties', 'isbn'], doc.createNode({ type: 'string', pattern: '^[0-9]{13}$' }));
      for (const schema of ['Book', 'BookCreate']) doc.setIn(['components', 'schemas', schema, 'required'], doc.createNode([...(doc.getIn(['components', 'schemas', schema, 'required']) as { toJSON(): string[] }).toJSON(), 'isbn']));
    });
    const result = generate();
    expect(result.status).toBe(1);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe("generate: refused, generated/ is unchanged: openapi.yaml's own examples lack isbn, which its schema requires: add it to each example below, then generate again (or keep the field optional)");
    const books = lineOf('  /books:');
    const book = lineOf('  /books/{id}:');
    const bookList = lineOf('    BookList:');
    const expected: [number, string][] = [
      [lineOf('value: { title: Dune }', books), 'POST /books request body example "minimal"'],
      [lineOf('value: { title: Dune, pages: 412 }', books), 'POST /books request body example "withPages"'],
      [lineOf('example: { id: 4, title: Dune, pages: 412 }', books), 'POST /books 201 example'],
      [lineOf('example: { id: 1, title: The Hobbit, pages: 310 }', book), 'GET /books/{id} 200 example'],
      [lineOf("example: { id: 1, title: 'The Hobbit, or There and Back Again', pages: 310 }", book), 'PUT /books/{id} 200 example'],
      [lineOf('example: { id: 1, title: The Hobbit, pages: 320 }', book), 'PATCH /books/{id} 200 example'],
      [lineOf('- { id: 1, title: The Hobbit, pages: 310 }', bookList), 'response BookList example, item 0 (GET /books 200)'],
      [lineOf('- { id: 2, title: Dune, pages: 412 }', bookList), 'response BookList example, item 1 (GET /books 200)'],
    ];
    expect(expected.every(([line]) => line > 0)).toBe(true);
    expect(lines.slice(1)).toEqual(expected.sort(([a], [b]) => a - b).map(([line, label]) => `  openapi.yaml:${line} ${label}: add isbn`));
    expect(project.read('generated/openapi.ts')).toBe(before);
  }, 120000);

  it('when the examples have the newly required field but the project\'s seed does not, then it refuses naming each seed record with its line, and writes nothing', () => {
    editSpec((doc) => {
      for (const schema of ['Book', 'BookCreate', 'BookUpdate']) doc.setIn(['components', 'schemas', schema, 'properties', 'isbn'], doc.createNode({ type: 'string' }));
      for (const schema of ['Book', 'BookCreate']) doc.setIn(['components', 'schemas', schema, 'required'], doc.createNode([...(doc.getIn(['components', 'schemas', schema, 'required']) as { toJSON(): string[] }).toJSON(), 'isbn']));
    });
    // The examples fixed as the refusal said: isbn added to each example it named.
    const refused = generate().stderr;
    const lines = project.read('openapi.yaml').split('\n');
    for (const [, line] of refused.matchAll(/openapi\.yaml:(\d+) .*: add isbn/g)) lines[Number(line) - 1] = lines[Number(line) - 1].replace(/\s*\}\s*$/, ", isbn: '9780000000000' }");
    project.write('openapi.yaml', lines.join('\n'));
    const seed = project.read('seed/default.json');
    const before = project.read('generated/openapi.ts');
    const result = generate();
    expect(result.status).toBe(1);
    const books = (JSON.parse(seed) as { books: { id: number }[] }).books;
    const seedLines = seed.split('\n');
    // The line of a record's "{": the (1-based) line before its `"id": N,` is its (0-based) index.
    const lineOfId = (id: number) => seedLines.findIndex((line, i) => line.trim() === `"id": ${id},` && seedLines[i - 1].trim() === '{');
    expect(result.stderr.trimEnd().split('\n')).toEqual([
      'generate: refused, generated/ is unchanged: seed/default.json, the data a new store starts with, lacks isbn, which the contract requires: add it to each record below, then generate again (or give it a default in the contract)',
      ...books.map((book, i) => `  seed/default.json:${lineOfId(book.id)} books[${i}] (id ${book.id}): add isbn`),
    ]);
    expect(project.read('generated/openapi.ts')).toBe(before);
  }, 120000);

  it('when a new operation breaks a lint rule, then it refuses with one line per problem, with its place and rule', () => {
    editSpec((doc) => {
      doc.setIn(['paths', '/quotes/{id}'], doc.createNode({
        get: {
          tags: ['meta'],
          operationId: 'getQuote',
          summary: 'Get a quote',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1, maximum: 100 } }],
          responses: {
            200: { description: 'A quote.', content: { 'application/json': { schema: { type: 'string' } } } },
            404: { $ref: '#/components/responses/JsonNotFound' },
          },
        },
      }));
    });
    const result = generate();
    expect(result.status).toBe(1);
    const line = lineOf('- name: id', lineOf('/quotes/{id}:'));
    expect(result.stderr).toMatch(
      new RegExp(`^generate: refused, generated/ is unchanged: openapi.yaml breaks a lint rule \\(redocly.yaml, as npm run lint:openapi checks\\):\n  openapi.yaml:${line}:\\d+ GET /quotes/\\{id\\} parameter id: Parameter object description must be present \\(parameter-description\\)\n$`),
    );
  }, 120000);

  it('when an integer REST accepts beyond 32 bits is a GraphQL Int, then it refuses naming the field and the bound to give it', () => {
    editSpec((doc) => {
      for (const schema of ['Todo', 'TodoCreate']) doc.setIn(['components', 'schemas', schema, 'properties', 'priority'], doc.createNode({ type: 'integer', minimum: 0 }));
    });
    project.write('schema.graphql', sdl.replace(/(type Todo\b[^{]*\{[\s\S]*?)\n\}/, '$1\n  "How urgent."\n  priority: Int\n}'));
    const result = generate();
    expect(result).toMatchObject({ status: 1, stdout: '' });
    expect(result.stderr).toBe(
      'generate: refused, generated/ is unchanged: the contract cannot be served as written (the start would refuse it too):\n' +
        '  schema.graphql Todo.priority is Int but openapi.yaml Todo.priority is an integer with minimum 0 and no maximum, and GraphQL Int holds 32 bits: give it maximum: 2147483647\n',
    );
  }, 120000);
});
