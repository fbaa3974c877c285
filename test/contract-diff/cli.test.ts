import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { main } from '../../scripts/contract-diff/cli';
import { fixture } from './support';

// The CLI in throwaway git repositories: which base it picks, what it prints, how it exits.
describe('npm run contract:diff', () => {
  let dir: string;
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=gate', '-c', 'user.email=gate@example.com', '-c', 'core.hooksPath=/dev/null', ...args], {
      cwd: dir,
      encoding: 'utf8',
    }).trim();
  const writeSpecs = (openapi: string, graphql = 'base') => {
    writeFileSync(path.join(dir, 'openapi.yaml'), fixture(`openapi/${openapi}.yaml`));
    writeFileSync(path.join(dir, 'schema.graphql'), fixture(`graphql/${graphql}.graphql`));
  };
  const commit = (message: string) => {
    git('add', '-A');
    git('commit', '-q', '-m', message);
  };
  const run = async (...argv: string[]) => {
    const out: string[] = [];
    const code = await main(argv, (line) => out.push(line), dir);
    return { code, out };
  };

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'contract-diff-'));
    git('init', '-q', '-b', 'main');
    writeSpecs('base');
    commit('base');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('when the ref does not exist (the first commit has no parent), then it says so and exits 0', async () => {
    const { code, out } = await run('HEAD~1');

    expect(code).toBe(0);
    expect(out).toEqual(['contract:diff: nothing to compare against: no commit "HEAD~1" in this clone (shallow clone or first commit?). Gate skipped.']);
  });

  test('when the working tree removes an operation, then it prints the breaking change and exits 1', async () => {
    writeSpecs('operation-removed');

    const { code, out } = await run('HEAD');

    expect(code).toBe(1);
    expect(out[0]).toMatch(/^contract:diff: openapi.yaml and schema.graphql \(working tree\) against HEAD \([0-9a-f]{12}\)$/);
    expect(out.slice(1)).toEqual([
      'BREAKING  openapi.yaml   POST /books: operation removed  [not deprecated in the base: deprecate it first, keep serving it, remove it after a major version bump]',
      '1 breaking (1 not announced), 0 dangerous, 0 safe; version 1.0.0: FAIL',
    ]);
  });

  test('when only safe and dangerous changes were made, then it lists them and exits 0', async () => {
    writeSpecs('new-error-status', 'field-added');

    const { code, out } = await run('HEAD');

    expect(code).toBe(0);
    expect(out.slice(1)).toEqual([
      'DANGEROUS openapi.yaml   POST /books 409: new response status (clients must handle it)',
      "SAFE      schema.graphql Book.isbn: Field 'isbn' was added to object type 'Book'",
      '0 breaking (0 not announced), 1 dangerous, 1 safe; version 1.0.0: ok',
    ]);
  });

  test('when no ref is given on a branch, then it compares with the merge base with main, not the last commit', async () => {
    git('checkout', '-q', '-b', 'feature');
    writeSpecs('base', 'field-removed');
    commit('remove Book.pages');
    writeSpecs('operation-added', 'field-removed');
    commit('add DELETE /notes/{id}');

    const sinceParent = await run('HEAD~1');
    const sinceMain = await run();

    expect(sinceParent.code).toBe(0);
    expect(sinceMain.code).toBe(1);
    expect(sinceMain.out[0]).toContain('against merge base with main');
    expect(sinceMain.out).toContain(
      "BREAKING  schema.graphql Book.pages: Field 'pages' was removed from object type 'Book'  [not deprecated in the base: deprecate it first, keep serving it, remove it after a major version bump]",
    );
  });

  test('when there is no main branch, then it uses the last tag, and with no tag either it skips', async () => {
    git('branch', '-m', 'trunk');
    writeSpecs('operation-removed');

    expect((await run()).out).toEqual(['contract:diff: nothing to compare against: no main branch and no tag to compare with. Gate skipped.']);
    git('tag', 'v1.0.0');
    const { code, out } = await run();
    expect(code).toBe(1);
    expect(out[0]).toContain('against last tag v1.0.0');
  });

  test('when a spec does not parse, then it says which and exits 2', async () => {
    writeFileSync(path.join(dir, 'schema.graphql'), 'type Query {');

    const { code, out } = await run('HEAD');

    expect(code).toBe(2);
    expect(out[1]).toMatch(/^contract:diff: schema.graphql does not parse: Syntax Error/);
  });

  test('when a spec is not in the base, then that file is not compared', async () => {
    git('rm', '-q', 'schema.graphql');
    commit('no schema yet');
    writeSpecs('base', 'field-removed');

    const { code, out } = await run('HEAD');

    expect(code).toBe(0);
    expect(out[0]).toBe('contract:diff: schema.graphql is not in the base: not compared');
  });
});
