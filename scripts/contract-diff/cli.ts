// `npm run contract:diff [-- <base-ref>]`: the breaking-change gate. Compares openapi.yaml and
// schema.graphql in the working tree with the same files at a git ref, prints every change as
// BREAKING, DANGEROUS or SAFE, and exits 1 when a breaking change is not announced (see gate.ts).
//
// Base ref: the argument; by default the merge base with main (or origin/main), else the last tag.
// When there is no such ref (a shallow clone, the first commit), it says so and exits 0: there is
// nothing to compare against. Exit codes: 0 ok or nothing to compare, 1 unannounced breaking change,
// 2 bad usage or a spec that does not parse.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { checkContracts, FILES, formatReport, type Specs } from './gate';

const USAGE = 'usage: npm run contract:diff [-- <base-ref>]   (default: the merge base with main, else the last tag)';

function git(root: string, args: string[]): string | undefined {
  const result = spawnSync('git', args, { cwd: root, encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

const commitOf = (root: string, ref: string) => git(root, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);

/** The base commit and how it was chosen, or why there is none. */
function resolveBase(root: string, ref: string | undefined): { sha: string; label: string } | { missing: string } {
  if (ref !== undefined) {
    const sha = commitOf(root, ref);
    return sha ? { sha, label: ref } : { missing: `no commit "${ref}" in this clone (shallow clone or first commit?)` };
  }
  for (const branch of ['main', 'origin/main']) {
    const sha = commitOf(root, branch) && git(root, ['merge-base', 'HEAD', branch]);
    if (sha) return { sha, label: `merge base with ${branch}` };
  }
  const tag = git(root, ['describe', '--tags', '--abbrev=0']);
  if (tag) return { sha: commitOf(root, tag)!, label: `last tag ${tag}` };
  return { missing: 'no main branch and no tag to compare with' };
}

export async function main(argv: string[], write: (line: string) => void, root = process.cwd()): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    write(USAGE);
    return 0;
  }
  if (argv.length > 1 || argv.some((a) => a.startsWith('-'))) {
    write(USAGE);
    return 2;
  }
  const base = resolveBase(root, argv[0]);
  if ('missing' in base) {
    write(`contract:diff: nothing to compare against: ${base.missing}. Gate skipped.`);
    return 0;
  }
  const baseSpecs: Specs = {};
  const headSpecs: Specs = {};
  for (const key of ['openapi', 'graphql'] as const) {
    const file = FILES[key];
    baseSpecs[key] = git(root, ['show', `${base.sha}:./${file}`]);
    headSpecs[key] = existsSync(path.join(root, file)) ? readFileSync(path.join(root, file), 'utf8') : undefined;
    if (baseSpecs[key] === undefined) write(`contract:diff: ${file} is not in the base: not compared`);
    else if (headSpecs[key] === undefined) write(`contract:diff: ${file} is missing in the working tree: not compared`);
  }
  write(`contract:diff: ${FILES.openapi} and ${FILES.graphql} (working tree) against ${base.label} (${base.sha.slice(0, 12)})`);
  try {
    const result = await checkContracts(baseSpecs, headSpecs);
    formatReport(result).forEach((line) => write(line));
    return result.failed ? 1 : 0;
  } catch (err) {
    write(`contract:diff: ${(err as Error).message}`);
    return 2;
  }
}

if (require.main === module) {
  main(process.argv.slice(2), (line) => process.stdout.write(`${line}\n`)).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`contract:diff: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 2;
    },
  );
}
