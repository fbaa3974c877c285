import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../src/spec';

/**
 * Every place that sends a reader to a section of a doc finds it: a Markdown link with an anchor
 * (`[settings](settings.md#getting-a-token)`, `[above](#health-checks)`), and a doc named with a section title in
 * code, scripts and messages (`docs/changing-the-contract.md, "Changes a store does not make by itself"`,
 * `docs/settings.md ("Getting a token")`). test/docs/named-paths.test.ts checks that the files exist; this checks
 * the sections, which a rename of a heading breaks in silence.
 */

/** The anchor GitHub gives a heading: lower case, punctuation but `-` and `_` dropped, spaces as `-`. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The headings of a Markdown file, outside fenced code blocks, as written (without the `#`s). */
function headings(file: string): string[] {
  const found: string[] = [];
  let fenced = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    else if (!fenced && /^#{1,6} /.test(line)) found.push(line.replace(/^#+ /, '').trim());
  }
  return found;
}

/** A file's anchors, numbered as GitHub numbers a repeated one (`-1`, `-2`). */
function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const heading of headings(file)) {
    const anchor = anchorOf(heading);
    const count = seen.get(anchor) ?? 0;
    result.add(count ? `${anchor}-${count}` : anchor);
    seen.set(anchor, count + 1);
  }
  return result;
}

const tracked = () =>
  execFileSync('git', ['ls-files', '-z'], { cwd: projectRoot, encoding: 'utf8' })
    .split('\0')
    .filter((file) => file && !file.startsWith('generated/') && !file.startsWith('test/contract-diff/fixtures/') && !file.endsWith('package-lock.json'));

/** Markdown link targets with an anchor: `](page.md#anchor)` and `](#anchor)`, resolved from the naming file. */
const LINK = /\]\(([\w./-]*\.md)?#([^)\s]+)\)/g;
/** A doc named with a section title: `docs/operating.md, "Logs"`, `docs/operating.md ("Logs")` or `docs/operating.md "Logs"`. */
const CITED = /((?:docs\/[\w/-]+|README)\.md),? \(?"([^"]+)"/g;

describe('sections named in docs, code and messages', () => {
  it('when a Markdown link carries an anchor, then the page it points to has that heading', () => {
    const missing: string[] = [];
    let checked = 0;
    for (const file of tracked().filter((f) => f.endsWith('.md') || f === 'openapi.yaml')) {
      const text = readFileSync(path.join(projectRoot, file), 'utf8');
      for (const [, target, anchor] of text.matchAll(LINK)) {
        // openapi.yaml's links are read in Swagger UI, relative to the page; none of them carries an anchor today.
        const page = target ? path.resolve(path.dirname(path.join(projectRoot, file)), target) : path.join(projectRoot, file);
        if (!existsSync(page)) continue; // named-paths.test.ts reports it
        checked += 1;
        if (!anchors(page).has(anchor)) missing.push(`${file} links ${target ?? ''}#${anchor}`);
      }
    }
    expect(missing).toEqual([]);
    expect(checked).toBeGreaterThan(30);
  });

  it('when a file names a doc with a section title, then that doc has a heading that starts with it', () => {
    const missing: string[] = [];
    let checked = 0;
    for (const file of tracked().filter((f) => /\.(ts|js|mjs|md|ya?ml|sh)$/.test(f) || f === '.ci/run')) {
      // A title may run over two comment lines: read the file with its line breaks and comment markers folded.
      const text = readFileSync(path.join(projectRoot, file), 'utf8').replace(/\n\s*(?:\*|\/\/|#)?\s*/g, ' ');
      for (const [, doc, title] of text.matchAll(CITED)) {
        const page = path.join(projectRoot, doc);
        if (!existsSync(page)) continue;
        checked += 1;
        const wanted = title.toLowerCase();
        if (!headings(page).some((heading) => heading.toLowerCase().replace(/`/g, '').startsWith(wanted.replace(/`/g, '')))) {
          missing.push(`${file} names ${doc}, "${title}"`);
        }
      }
    }
    expect(missing).toEqual([]);
    expect(checked).toBeGreaterThan(10);
  });

  it('when a heading has punctuation, code or a number, then its anchor is the one GitHub makes', () => {
    expect(anchorOf('15. Who may call what: bearer tokens')).toBe('15-who-may-call-what-bearer-tokens');
    expect(anchorOf('The loop: `npm run dev`')).toBe('the-loop-npm-run-dev');
    expect(anchorOf('Choosing a store: `STORE` and `DATABASE_URL`')).toBe('choosing-a-store-store-and-database_url');
  });
});
