import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { projectRoot } from '../../src/spec';

/**
 * Every path of this repository that a code comment or a doc names exists: a comment that points at a file
 * that was renamed or removed sends the next reader nowhere. Read from the files git tracks:
 * - the comments of TypeScript and JavaScript files (TypeScript's scanner finds them), and the `#` comments
 *   of shell scripts, YAML and .env files;
 * - the whole text of Markdown files and of the two specs (their descriptions are docs).
 * A path is named from the repository root when it starts with one of the repository's top-level folders
 * (`src/http/routes.ts`, `docs/maintainers/storage.md#drivers`), or relative to the file that names it when it starts with
 * `./` or `../` (in a comment, or as a Markdown link's target). A path with a placeholder in it
 * (`test/rest/<resource>.test.ts`) is checked up to the placeholder.
 */

const TOP_FOLDERS = ['src', 'test', 'docs', 'scripts', 'bench', 'seed', 'generated', 'packages', '.ci'];
/** A root-relative path: a top folder, then path characters, ending on a name character or a `/`. */
const ROOTED = new RegExp(`(?<![\\w./@-])((?:${TOP_FOLDERS.map((f) => f.replace('.', '\\.')).join('|')})/[\\w./-]*[\\w/])`, 'g');
/** A path relative to the naming file. */
const RELATIVE = /(?<![\w./@-])(\.\.?\/[\w./-]*\w)/g;
/** A Markdown link's target that is a file (a bare name such as `design.md#the-dev-loop`, or one that starts with a dot), relative to the page. */
const LINK = /\]\(((?:\.\.?\/)?[\w./-]*\w)(?:#[^)]*)?\)/g;
/** What may follow a path that is cut short by a placeholder or a pattern: `test/store/sqlite*.test.ts`, `test/rest/<resource>.test.ts`. */
const PLACEHOLDER = /^[<{*[]/;

function trackedFiles(): string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: projectRoot, encoding: 'utf8' }).split('\0').filter(Boolean);
}

/** The comments of a TypeScript or JavaScript source: the comment ranges before and after every token of its syntax tree. */
function codeComments(text: string, file: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, /\.(ts|mts|cts)$/.test(file) ? ts.ScriptKind.TS : ts.ScriptKind.JS);
  const ranges = new Map<number, string>();
  const collect = (found: ts.CommentRange[] | undefined) => {
    for (const range of found ?? []) ranges.set(range.pos, text.slice(range.pos, range.end));
  };
  const visit = (node: ts.Node) => {
    collect(ts.getLeadingCommentRanges(text, node.getFullStart()));
    collect(ts.getTrailingCommentRanges(text, node.getEnd()));
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return [...ranges.entries()].sort(([a], [b]) => a - b).map(([, comment]) => comment);
}

/** What of a file names paths: comments of code and scripts, the whole text of docs and specs; undefined for other files. */
function namingText(file: string, text: string): string[] | undefined {
  if (/\.(ts|js|mjs|cjs)$/.test(file)) return codeComments(text, file);
  // A Markdown page names relative paths only as link targets (an import in one of its code examples is the reader's module).
  if (/\.md$/.test(file) || file === 'openapi.yaml' || file === 'schema.graphql') return [text];
  if (/\.(ya?ml|sh)$/.test(file) || file === '.ci/run' || file.endsWith('.env.example') || file === '.gitignore') {
    return text.split('\n').filter((line) => line.trimStart().startsWith('#'));
  }
  return undefined;
}

interface Named {
  named: string;
  resolved: string;
  /** Cut short by a placeholder: some path starting with `resolved` must exist. */
  prefix: boolean;
}

/** Every repository path `file` names. */
function namedPaths(file: string): Named[] {
  const full = path.join(projectRoot, file);
  const parts = namingText(file, readFileSync(full, 'utf8'));
  if (!parts) return [];
  const found: Named[] = [];
  const add = (match: RegExpMatchArray, from: string) => {
    const named = match[1];
    const after = match.input!.slice(match.index! + match[0].length);
    found.push({ named, resolved: path.resolve(from, named), prefix: PLACEHOLDER.test(after) });
  };
  for (const part of parts) {
    for (const match of part.matchAll(ROOTED)) add(match, projectRoot);
    if (file.endsWith('.md')) for (const match of part.matchAll(LINK)) add(match, path.dirname(full));
    else for (const match of part.matchAll(RELATIVE)) add(match, path.dirname(full));
  }
  return found;
}

/** Whether a named path exists: as named, or as a module named without its extension (`src/spec`); for one cut short by a placeholder, whether some entry of its folder starts with it. */
function exists({ resolved, prefix }: Named): boolean {
  if (['', '.ts', '.js'].some((extension) => existsSync(`${resolved}${extension}`))) return true;
  if (!prefix) return false;
  const folder = path.dirname(resolved);
  return existsSync(folder) && readdirSync(folder).some((entry) => entry.startsWith(path.basename(resolved)));
}

/**
 * Paths the project names that are not in the repository on purpose: what a build, a run or a user makes.
 * Each is a prefix of the resolved path, relative to the root.
 */
const MADE_LATER = [
  'dist/', // npm run build, npm run dev (dist/dev), the contract kits
  'data/', // the SQLite store's file
  'artifacts/', // the browser tests' screenshots
  '.cache/', // scripts/with-node.sh's Node versions
  'node_modules/',
  'migrations/', // hand-written migrations are the user's (docs/changing-the-contract.md)
  'bench/node_modules/',
  'bench/results/', // npm run bench's results (not committed)
  'coverage/',
];

describe('paths named in comments and docs', () => {
  it('when a comment or a doc names a path of this repository, then that path exists', () => {
    const missing: string[] = [];
    let checked = 0;
    for (const file of trackedFiles()) {
      if (file.startsWith('generated/') || file.startsWith('test/contract-diff/fixtures/') || file.endsWith('package-lock.json')) continue;
      for (const named of namedPaths(file)) {
        const relative = path.relative(projectRoot, named.resolved);
        if (relative.startsWith('..') || MADE_LATER.some((prefix) => `${relative}/`.startsWith(prefix))) continue;
        checked += 1;
        if (!exists(named)) missing.push(`${file} names ${named.named}`);
      }
    }
    expect(missing).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  });

  it('when a comment names a file that does not exist, then the check finds it, and text in strings and templates is no comment', () => {
    const template = '`a $' + '{1} // src/in-template.ts b`';
    const source = ['// see ./gone.ts', `const re = /\\/x/; /* and src/nowhere.ts */ const s = '// src/in-string.ts'; const t = ${template}; // src/app.ts`].join('\n');
    const comments = codeComments(source, 'src/http/example.ts');
    expect(comments).toEqual(['// see ./gone.ts', '/* and src/nowhere.ts */', '// src/app.ts']);
    const rooted = comments.flatMap((c) => [...c.matchAll(ROOTED)].map((m) => m[1]));
    expect(rooted).toEqual(['src/nowhere.ts', 'src/app.ts']);
    expect([...comments[0].matchAll(RELATIVE)].map((m) => m[1])).toEqual(['./gone.ts']);
  });
});
